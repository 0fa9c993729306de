import type { Readable } from 'node:stream';
import type { ResponseStream } from '@nestops/operations';
import { McpProtocolError } from '../json-rpc/mcp-protocol.error.js';
import type { McpCallerContext } from '../mcp-caller.context.js';
import type { McpDispatcher } from '../mcp.dispatcher.js';
import { answerText } from '../protocol/answer.writer.js';
import { CarrierCancel } from './carrier-cancel.js';
import { isRecord } from '../json-rpc/json-rpc-envelope.js';
import type { JsonRpcId, JsonRpcResponse } from '../json-rpc/json-rpc.types.js';
import {
  cancelledRequestId,
  classifyMessage,
  type McpMessage,
} from '../protocol/mcp-message.js';

/** Where a stdio session writes: a stream's `write`, and its `drain` if it has one. */
export interface McpStdioOutput {
  /** Writes text; `false` (as a stream answers when its buffer is full) holds further lines back. */
  write(text: string): unknown;
  /** Calls `listener` once the output has taken what it buffered. */
  once?(event: 'drain', listener: () => void): unknown;
}

/** How a stdio session reads, writes and calls. */
export interface McpStdioSessionOptions {
  /** One JSON-RPC message per line, decoded as UTF-8. */
  readonly input: Readable;
  /** Protocol messages only, one per line, pure ASCII. */
  readonly output: McpStdioOutput;
  /** The context of every call of the session (credentials, tenant, locale, timeout). */
  readonly caller: McpCallerContext;
  /** The longest line, in bytes; a longer one is refused and skipped. */
  readonly maxMessageSize: number;
  /**
   * The most calls under way at once: at that many, no further line is
   * taken (reading pauses) until one finishes. Default 64.
   */
  readonly maxInFlight?: number;
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

const NEWLINE = 0x0a;

/**
 * MCP over stdio: one JSON-RPC message per line in, one answer per line
 * out, through the same dispatcher as HTTP. Each line is dispatched as soon
 * as it is read and answered when it finishes, so a slow call does not hold
 * back later ones; a malformed line gets its JSON-RPC error and the session
 * goes on. At most `maxInFlight` calls are under way: at that many, the
 * session takes no further line (not even one already read) and stops
 * reading, until one finishes. A call may send messages ahead of its answer
 * (its response stream): each is a line of its own, written as it is sent,
 * until the answer's line. A `notifications/cancelled` naming a
 * `tools/call` under way aborts that call's signal (its unit of work rolls
 * back unless its commit has begun) and its answer is not written; one
 * naming no call under way is ignored. `run()` resolves once the input has
 * ended and every call under way has been answered.
 *
 * Lines are cut from the bytes as they come (a newline byte is never part
 * of a UTF-8 sequence) and each is decoded once, whole. The lines written
 * while the session works go out together, in order, as one write; while
 * the output's buffer is full (its `write` answered `false`) no further
 * line is taken, so what waits to be written stays bounded.
 */
export class McpStdioSession {
  private readonly inFlight = new Set<Promise<void>>();
  /** The `tools/call` requests under way, by id: what a cancellation aborts. */
  private readonly cancels = new Map<JsonRpcId, CarrierCancel>();
  private readonly maxInFlight: number;
  /**
   * Every call's caller: the options', with the session's log level, and
   * once `initialize` is answered, the version it agreed as the
   * `mcp-protocol-version` header (where an HTTP client sends it).
   */
  private caller: McpCallerContext;
  /** Chunks read and not yet taken, the first one from `at` on. */
  private readonly unread: Buffer[] = [];
  private at = 0;
  /** The line being read, as far as it came. */
  private pieces: Buffer[] = [];
  private bytes = 0;
  private tooLong = false;
  /** Lines to write at the end of this turn, in order. */
  private pending: string[] = [];
  /** Whether the output's buffer is full: no line is taken until it drains. */
  private blocked = false;
  /** Set once the input ended: what resolves `run()` once all is taken. */
  private onEnd?: () => void;
  /** How every call's stream writes its lines: one function for the session. */
  private readonly writeLine = (message: object) => this.write(message);

  constructor(
    private readonly dispatcher: McpDispatcher,
    private readonly options: McpStdioSessionOptions,
  ) {
    this.maxInFlight = options.maxInFlight ?? 64;
    // The session keeps the level its client sets with `logging/setLevel`.
    this.caller = { logging: { level: undefined }, ...options.caller };
  }

  run(): Promise<void> {
    const { input } = this.options;
    return new Promise<void>((resolve, reject) => {
      input.on('data', (chunk: Buffer | string) => {
        this.unread.push(
          typeof chunk === 'string' ? Buffer.from(chunk) : chunk,
        );
        this.take();
      });
      input.once('end', () => {
        this.onEnd = () => {
          this.endLine();
          void this.settled().then(resolve, reject);
        };
        this.take();
      });
      input.once('error', reject);
    });
  }

  /**
   * Takes the unread bytes line by line while fewer than `maxInFlight`
   * calls are under way and the output is not full; otherwise it pauses
   * the input and keeps the rest.
   */
  private take(): void {
    const { input } = this.options;
    while (this.inFlight.size < this.maxInFlight && !this.blocked) {
      const chunk = this.unread[0];
      if (chunk === undefined) {
        const end = this.onEnd;
        this.onEnd = undefined;
        end?.();
        if (input.isPaused()) {
          input.resume();
        }
        return;
      }
      const newline = chunk.indexOf(NEWLINE, this.at);
      if (newline === -1) {
        this.append(chunk, this.at, chunk.length);
        this.unread.shift();
        this.at = 0;
        continue;
      }
      this.append(chunk, this.at, newline);
      this.at = newline + 1;
      this.endLine();
    }
    input.pause();
  }

  private append(chunk: Buffer, from: number, to: number): void {
    if (to === from) {
      return;
    }
    this.bytes += to - from;
    if (this.bytes > this.options.maxMessageSize) {
      // The line is refused whatever follows: keep none of it.
      this.tooLong = true;
      this.pieces = [];
      return;
    }
    this.pieces.push(chunk.subarray(from, to));
  }

  private endLine(): void {
    const { pieces, tooLong } = this;
    this.pieces = [];
    this.bytes = 0;
    this.tooLong = false;
    if (tooLong) {
      this.write(
        McpProtocolError.invalidRequest(
          `a message is at most ${this.options.maxMessageSize} bytes`,
        ).toResponse(null),
      );
      return;
    }
    const line =
      pieces.length === 1
        ? pieces[0].toString('utf8')
        : Buffer.concat(pieces).toString('utf8');
    if (line.trim() === '') {
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      this.write(McpProtocolError.parse().toResponse(null));
      return;
    }
    this.track(this.answer(message));
  }

  private async answer(message: unknown): Promise<void> {
    const cancelled = cancelledRequestId(message);
    if (cancelled !== undefined) {
      this.cancels.get(cancelled)?.cancel();
    }
    // No headers on stdio: a message's era is decided by its body alone.
    const classified = classifyMessage(message);
    const id =
      classified.kind === 'request' &&
      classified.method === 'tools/call' &&
      !this.cancels.has(classified.id)
        ? classified.id
        : undefined;
    const cancel = id === undefined ? undefined : new CarrierCancel();
    if (cancel) {
      this.cancels.set(id as JsonRpcId, cancel);
    }
    const stream = new LineStream(this.writeLine, cancel);
    try {
      const response = await this.dispatcher.serve(
        classified,
        cancel ? { ...this.caller, signal: cancel } : this.caller,
        stream,
      );
      stream.open = false;
      // A cancelled request is not answered.
      if (response !== undefined && !cancel?.aborted) {
        this.agreed(classified, response);
        this.write(response);
      }
    } finally {
      if (cancel) {
        this.cancels.delete(id as JsonRpcId);
      }
    }
  }

  /** Keeps the version an answered `initialize` agreed (see `caller`). */
  private agreed(message: McpMessage, response: JsonRpcResponse): void {
    const version =
      message.kind === 'request' &&
      message.method === 'initialize' &&
      'result' in response &&
      isRecord(response.result)
        ? response.result.protocolVersion
        : undefined;
    if (typeof version === 'string') {
      this.caller = {
        ...this.caller,
        headers: { ...this.caller.headers, 'mcp-protocol-version': version },
      };
    }
  }

  private track(call: Promise<void>): void {
    const tracked = call.finally(() => {
      this.inFlight.delete(tracked);
      this.take();
    });
    this.inFlight.add(tracked);
  }

  private async settled(): Promise<void> {
    while (this.inFlight.size > 0) {
      await Promise.all(this.inFlight);
    }
    this.flush();
  }

  /** Queues a message's line; the lines of a turn are written together. */
  private write(message: object): void {
    if (this.pending.push(`${asciiJson(answerText(message))}\n`) === 1) {
      process.nextTick(() => this.flush());
    }
  }

  private flush(): void {
    const lines = this.pending;
    if (lines.length === 0) {
      return;
    }
    this.pending = [];
    const { output } = this.options;
    if (
      output.write(lines.join('')) === false &&
      output.once &&
      !this.blocked
    ) {
      this.blocked = true;
      this.options.input.pause();
      output.once('drain', () => {
        this.blocked = false;
        this.take();
      });
    }
  }
}

/** A call's response stream on stdio: its lines, until its answer or its cancellation. */
class LineStream implements ResponseStream {
  private answered = false;

  constructor(
    private readonly writeLine: (message: object) => void,
    private readonly cancelled?: CarrierCancel,
  ) {}

  get open(): boolean {
    return !this.answered && !this.cancelled?.aborted;
  }

  set open(open: boolean) {
    this.answered = !open;
  }

  send(message: Readonly<Record<string, unknown>>): void {
    if (this.open) {
      this.writeLine(message);
    }
  }
}
