import { answerText } from '../../protocol/answer-text.js';

/** Where a stdio session writes: a stream's `write`, and its `drain` if it has one. */
export interface McpStdioOutput {
  /** Writes text; `false` (as a stream answers when its buffer is full) holds further lines back. */
  write(text: string): unknown;
  /** Calls `listener` once the output has taken what it buffered. */
  once?(event: 'drain', listener: () => void): unknown;
}

/**
 * A JSON text with every non-ASCII UTF-16 code unit escaped as `\uXXXX`, so
 * that it survives any console code page.
 */
export function asciiJson(text: string): string {
  // As many UTF-8 bytes as code units: every one is ASCII, nothing to escape
  // (counted natively, far faster than the expression's scan).
  if (Buffer.byteLength(text, 'utf8') === text.length) {
    return text;
  }
  return text.replace(
    /[\u0080-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * The lines a stdio session writes, one message each, pure ASCII: those
 * written in one turn go out together, in order, as one write. While the
 * output's buffer is full (its `write` answered `false`), `blocked` is
 * true until it drains, when `onDrain` is called.
 */
export class LineWriter {
  private pending: string[] = [];
  /** Whether the output's buffer is full. */
  blocked = false;

  constructor(
    private readonly output: McpStdioOutput,
    private readonly onBlocked: () => void,
    private readonly onDrain: () => void,
  ) {}

  /** Queues a message's line; the lines of a turn are written together. */
  write(message: object): void {
    if (this.pending.push(`${asciiJson(answerText(message))}\n`) === 1) {
      process.nextTick(() => this.flush());
    }
  }

  /** Writes what is queued now. */
  flush(): void {
    const lines = this.pending;
    if (lines.length === 0) {
      return;
    }
    this.pending = [];
    const { output } = this;
    if (
      output.write(lines.join('')) === false &&
      output.once &&
      !this.blocked
    ) {
      this.blocked = true;
      this.onBlocked();
      output.once('drain', () => {
        this.blocked = false;
        this.onDrain();
      });
    }
  }
}
