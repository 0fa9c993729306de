import type { Readable } from 'node:stream';
import type { ResponseStream } from '@nestops/operations/internal';
import { McpProtocolError } from '../json-rpc/mcp-protocol.error.js';
import type { CallerLogging, McpCallerContext } from '../mcp-caller.context.js';
import { DEFAULT_MAX_BODY_SIZE } from '../mcp.constants.js';
import type { McpDispatcher } from '../mcp.dispatcher.js';
import { answerText } from '../protocol/answer-text.js';
import {
  greetingAnswer,
  type McpGreetingSettings,
} from '../protocol/greeting.js';
import type { CarrierCancel } from './carrier-cancel.js';
import { InFlightCalls } from './in-flight-calls.js';
import {
  JSON_RPC_INTERNAL_ERROR,
  type JsonRpcResponse,
} from '../json-rpc/json-rpc.types.js';
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

/** What serves a session's messages. */
export interface McpStdioServer {
  readonly dispatcher: McpDispatcher;
  /** The context of every call of the session (credentials, tenant, locale, timeout). */
  readonly caller: McpCallerContext;
  /** The longest line, in bytes; a longer one is refused and skipped. */
  readonly maxMessageSize: number;
}

/** Where a stdio session reads and writes. */
export interface McpStdioStreams {
  /** One JSON-RPC message per line, decoded as UTF-8. */
  readonly input: Readable;
  /** Protocol messages only, one per line, pure ASCII. */
  readonly output: McpStdioOutput;
  /**
   * The most calls under way at once: at that many, no further line is
   * taken (reading pauses) until one finishes. Default 64.
   */
  readonly maxInFlight?: number;
}

/** How a stdio session reads, writes and calls. */
export interface McpStdioSessionOptions
  extends McpStdioStreams, Omit<McpStdioServer, 'dispatcher'> {}

/** How a session that starts before its server reads, writes and greets. */
export interface McpStdioStartOptions extends McpStdioStreams {
  /**
   * What `initialize` and `server/discover` are answered with while the
   * server loads; without it, every message waits for the server.
   */
  readonly greeting?: McpGreetingSettings;
}

/**
 * A JSON text with every non-ASCII UTF-16 code unit escaped as `\uXXXX`, so
 * that it survives any console code page.
 */
export function asciiJson(text: string): string {
  // As many UTF-8 bytes as code units: every one is ASCII, nothing to escape
  // (counted natively, far faster than the expression's scan).
  // Stryker disable next-line ConditionalExpression: a shortcut only; the expression leaves a pure ASCII text as it is
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
 * request under way aborts its signal (a call's unit of work rolls back
 * unless its commit has begun) and its answer is not written; one naming
 * no request under way is ignored. `run()` resolves once the input has
 * ended and every call under way has been answered.
 *
 * Lines are cut from the bytes as they come (a newline byte is never part
 * of a UTF-8 sequence) and each is decoded once, whole. The lines written
 * while the session works go out together, in order, as one write; while
 * the output's buffer is full (its `write` answered `false`) no further
 * line is taken, so what waits to be written stays bounded.
 *
 * A session made by `starting()` reads before its server exists: it answers
 * the greetings (`initialize`, `server/discover`) itself, with the text the
 * dispatcher writes, and starts loading the server once it has written one;
 * the first other message (or a line longer than the default limit, or the
 * input's end) waits for the server, and no line after it is taken until the
 * server is there: then they are served in order as any other. If the server
 * fails to load, the waiting request is answered with `-32603` and `run()`
 * rejects with the cause.
 */
export class McpStdioSession {
  private readonly inFlight = new Set<Promise<void>>();
  /** The requests under way, by id: what a cancellation aborts. */
  private readonly calls = new InFlightCalls();
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
  /** What serves the messages; undefined while it loads. */
  private dispatcher?: McpDispatcher;
  /** The longest line taken (before the server is there: the default). */
  private maxMessageSize: number;
  /** What loads the server, until it has been called. */
  private loader?: () => Promise<McpStdioServer>;
  /** What the greetings are answered with before the server is there. */
  private readonly greeting?: McpGreetingSettings;
  /** Whether no line is taken until the server is there. */
  private waiting = false;
  /** The message that waits for the server, with its line's place in the order. */
  private held?: { readonly message: unknown };
  /** How `run()` fails when the server does not load. */
  private fail?: (error: unknown) => void;
  /** Why the server did not load, once it failed (before `run()`, say). */
  private failure?: { readonly error: unknown };

  constructor(dispatcher: McpDispatcher, options: McpStdioSessionOptions);
  /** @internal */
  constructor(
    dispatcher: undefined,
    options: McpStdioStartOptions,
    loader: () => Promise<McpStdioServer>,
  );
  constructor(
    dispatcher: McpDispatcher | undefined,
    private readonly options: McpStdioSessionOptions | McpStdioStartOptions,
    loader?: () => Promise<McpStdioServer>,
  ) {
    this.maxInFlight = options.maxInFlight ?? 64;
    this.dispatcher = dispatcher;
    this.loader = loader;
    if ('caller' in options) {
      this.maxMessageSize = options.maxMessageSize;
      this.caller = McpStdioSession.callerOf(options.caller);
    } else {
      this.maxMessageSize = DEFAULT_MAX_BODY_SIZE;
      this.caller = McpStdioSession.callerOf({ headers: {} });
      this.greeting = options.greeting;
    }
  }

  /**
   * A session that reads before its server exists: `load` is called once
   * the first greeting has been answered, a message needs the server, or
   * `startServer()` is called, whichever comes first.
   */
  static starting(
    load: () => Promise<McpStdioServer>,
    options: McpStdioStartOptions,
  ): McpStdioSession {
    return new McpStdioSession(undefined, options, load);
  }

  /** The session keeps the level its client sets with `logging/setLevel`. */
  private static callerOf(caller: McpCallerContext): McpCallerContext {
    // Stryker disable next-line ObjectLiteral: a level that is undefined and one that is absent read the same
    const logging: CallerLogging = { level: undefined };
    return { logging, ...caller };
  }

  /** Starts loading the server now, unless it is loading or there already. */
  startServer(): void {
    const load = this.loader;
    if (load === undefined) {
      return;
    }
    this.loader = undefined;
    load().then(
      (server) => this.serverReady(server),
      (error: unknown) => this.serverFailed(error),
    );
  }

  private serverReady(server: McpStdioServer): void {
    this.dispatcher = server.dispatcher;
    this.maxMessageSize = server.maxMessageSize;
    // The version an early `initialize` agreed stays the session's.
    const version = this.caller.headers['mcp-protocol-version'];
    this.caller = McpStdioSession.callerOf(server.caller);
    if (typeof version === 'string') {
      this.caller = McpStdioSession.withVersion(this.caller, version);
    }
    this.waiting = false;
    const held = this.held;
    this.held = undefined;
    if (held) {
      this.track(this.answer(held.message));
    }
    this.take();
  }

  private serverFailed(error: unknown): void {
    // The held message gets the answer it can have without the server: a
    // request -32603, a refused message its refusal, a notification none.
    const held = this.held && classifyMessage(this.held.message);
    this.held = undefined;
    if (held?.kind === 'refused') {
      this.write(held.error.toResponse(held.id));
    } else if (held?.kind === 'request') {
      this.write({
        jsonrpc: '2.0',
        id: held.id,
        error: {
          code: JSON_RPC_INTERNAL_ERROR,
          message: `The server did not start: ${error instanceof Error ? error.message : String(error)}`,
        },
      });
    }
    this.flush();
    this.options.input.pause();
    this.failure = { error };
    // Undefined until `run()`, which then fails at once.
    this.fail?.(error);
  }

  run(): Promise<void> {
    const { input } = this.options;
    const { failure } = this;
    if (failure) {
      return Promise.reject(failure.error);
    }
    return new Promise<void>((resolve, reject) => {
      this.fail = reject;
      input.on('data', (chunk: Buffer | string) => {
        this.unread.push(
          // Stryker disable next-line ConditionalExpression: a Buffer made from a Buffer holds the same bytes
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
    while (
      this.inFlight.size < this.maxInFlight &&
      !this.blocked &&
      !this.waiting
    ) {
      const chunk = this.unread[0];
      if (chunk === undefined) {
        const end = this.onEnd;
        if (end && this.dispatcher === undefined) {
          // The input ended before the server was there: its last line and
          // the end wait for it.
          this.waitForServer();
          break;
        }
        this.onEnd = undefined;
        end?.();
        input.resume();
        return;
      }
      const newline = chunk.indexOf(NEWLINE, this.at);
      if (
        this.dispatcher === undefined &&
        this.bytes + (newline === -1 ? chunk.length : newline) - this.at >
          this.maxMessageSize
      ) {
        // A line longer than the default limit waits for the server's own.
        this.waitForServer();
        break;
      }
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
    this.bytes += to - from;
    if (this.bytes > this.maxMessageSize) {
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
          `a message is at most ${this.maxMessageSize} bytes`,
        ).toResponse(null),
      );
      return;
    }
    const line = Buffer.concat(pieces).toString('utf8');
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
    if (this.dispatcher === undefined) {
      this.early(message);
      return;
    }
    this.track(this.answer(message));
  }

  /**
   * Before the server is there: a greeting is answered at once, and the
   * server starts loading once that answer is out; any other message waits
   * for the server, and no line after it is taken until then.
   */
  private early(message: unknown): void {
    const classified = classifyMessage(message);
    const answer = this.greeting && greetingAnswer(classified, this.greeting);
    if (answer) {
      this.agreed(answer);
      this.write(answer);
      // Once this turn's lines are written: loading the app holds the event loop.
      setImmediate(() => this.startServer());
      return;
    }
    this.held = { message };
    this.waitForServer();
  }

  /** No line is taken until the server is there; it starts loading if it was not. */
  private waitForServer(): void {
    this.waiting = true;
    this.options.input.pause();
    this.startServer();
  }

  private async answer(message: unknown): Promise<void> {
    const dispatcher = this.dispatcher as McpDispatcher;
    const cancelled = cancelledRequestId(message);
    // Stryker disable next-line ConditionalExpression: no request is tracked under an undefined id, so cancelling one cancels nothing
    if (cancelled !== undefined) {
      this.calls.cancel(SESSION, cancelled);
    }
    // No headers on stdio: a message's era is decided by its body alone.
    const classified = classifyMessage(message);
    // Stryker disable next-line ConditionalExpression,BlockStatement: a message that is not a request (a notification, a response, a refused message) is answered at once or not at all, and reads no signal: tracking it under its id cancels nothing
    if (classified.kind !== 'request') {
      return this.reply(dispatcher, classified, this.caller);
    }
    // Undefined when a request with this id is already under way: the first
    // keeps the cancellation.
    const cancel = this.calls.track(SESSION, classified.id);
    try {
      await this.reply(
        dispatcher,
        classified,
        { ...this.caller, signal: cancel?.signal },
        cancel,
      );
    } finally {
      this.calls.forget(SESSION, classified.id, cancel);
    }
  }

  /** Serves a message and writes its answer, unless `cancel` was cancelled. */
  private async reply(
    dispatcher: McpDispatcher,
    message: McpMessage,
    caller: McpCallerContext,
    cancel?: CarrierCancel,
  ): Promise<void> {
    const stream = new LineStream(this.writeLine, cancel);
    const response = await dispatcher.serve(message, caller, stream);
    stream.open = false;
    // A cancelled request is not answered.
    if (response !== undefined && !cancel?.aborted) {
      this.agreed(response);
      this.write(response);
    }
  }

  /**
   * Keeps the version an answered `initialize` agreed (see `caller`): its
   * result is the only one that names a `protocolVersion`.
   */
  private agreed(response: JsonRpcResponse): void {
    const version = (response as { result?: { protocolVersion?: unknown } })
      .result?.protocolVersion;
    if (typeof version === 'string') {
      this.caller = McpStdioSession.withVersion(this.caller, version);
    }
  }

  /** `caller` with `version` as its `mcp-protocol-version` header. */
  private static withVersion(
    caller: McpCallerContext,
    version: string,
  ): McpCallerContext {
    return {
      ...caller,
      headers: { ...caller.headers, 'mcp-protocol-version': version },
    };
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

/** The one caller of a session's requests, as far as cancelling them goes. */
const SESSION = 'stdio';

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
