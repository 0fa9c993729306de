const NEWLINE = 0x0a;

/** What the next line of the input is, as far as it has come. */
export type NextLine =
  /** A whole line, decoded as UTF-8. */
  | { readonly kind: 'line'; readonly text: string }
  /** A line longer than the limit: refused, none of it kept. */
  | { readonly kind: 'too-long' }
  /** The line goes on past the bytes read so far. */
  | { readonly kind: 'more' }
  /** The line would be longer than the `stopAbove` asked for: nothing taken. */
  | { readonly kind: 'over' };

/**
 * The lines of a byte stream. Lines are cut from the bytes as they come (a
 * newline byte is never part of a UTF-8 sequence) and each is decoded once,
 * whole; a line longer than `maxBytes` keeps none of its bytes.
 */
export class LineReader {
  /** Chunks read and not yet taken, the first one from `at` on. */
  private readonly unread: Buffer[] = [];
  private at = 0;
  /** The line being read, as far as it came. */
  private pieces: Buffer[] = [];
  private bytes = 0;
  private tooLong = false;

  constructor(public maxBytes: number) {}

  /** Whether every byte read has been taken. */
  get drained(): boolean {
    return this.unread.length === 0;
  }

  /** Bytes read from the input. */
  push(chunk: Buffer | string): void {
    this.unread.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  }

  /**
   * Takes the next line from the bytes read, or says it needs more; with
   * `stopAbove`, takes nothing more of a line longer than that (what a
   * reader that does not know its limit yet asks).
   */
  next(stopAbove?: number): NextLine {
    for (;;) {
      const chunk = this.unread[0];
      if (chunk === undefined) {
        return { kind: 'more' };
      }
      const newline = chunk.indexOf(NEWLINE, this.at);
      if (
        stopAbove !== undefined &&
        this.bytes + (newline === -1 ? chunk.length : newline) - this.at >
          stopAbove
      ) {
        return { kind: 'over' };
      }
      if (newline === -1) {
        this.append(chunk, this.at, chunk.length);
        this.unread.shift();
        this.at = 0;
        continue;
      }
      this.append(chunk, this.at, newline);
      this.at = newline + 1;
      return this.end();
    }
  }

  /** Ends the line being read (the input ended). */
  end(): Extract<NextLine, { kind: 'line' | 'too-long' }> {
    const { pieces, tooLong } = this;
    this.pieces = [];
    this.bytes = 0;
    this.tooLong = false;
    return tooLong
      ? { kind: 'too-long' }
      : { kind: 'line', text: Buffer.concat(pieces).toString('utf8') };
  }

  private append(chunk: Buffer, from: number, to: number): void {
    this.bytes += to - from;
    if (this.bytes > this.maxBytes) {
      // The line is refused whatever follows: keep none of it.
      this.tooLong = true;
      this.pieces = [];
      return;
    }
    this.pieces.push(chunk.subarray(from, to));
  }
}
