import { McpProtocolError } from '../../json-rpc/mcp-protocol.error.js';
import type { McpCallerContext } from '../../protocol/mcp-caller.context.js';
import { DEFAULT_MAX_BODY_SIZE } from '../../mcp.constants.js';
import type { McpGreetingSettings } from '../../protocol/greeting.js';
import { classifyMessage } from '../../protocol/mcp-message.js';
import type { McpProtocol } from '../../protocol/mcp-protocol.js';
import { McpSession } from '../../protocol/mcp-session.js';
import type { McpTransport } from '../../protocol/mcp-transport.js';
import { LineReader } from './stdio-lines.js';
import { LineWriter } from './stdio-output.js';
import { earlyGreeting, startFailureAnswer } from './stdio-start.js';
import type {
  McpStdioServer,
  McpStdioSessionOptions,
  McpStdioStartOptions,
} from './stdio-options.js';

/**
 * MCP over stdio: one JSON-RPC message per line in, one answer per line
 * out, through the protocol layer as HTTP is. The transport moves lines;
 * the session's protocol state (the revision agreed, calls under way and
 * their cancellation, the log level, requests to the client) is an
 * `McpSession`. Each line is served as soon as it is read and answered
 * when it finishes, so a slow call does not hold back later ones; a
 * malformed line gets its JSON-RPC error and the session goes on. At most
 * `maxInFlight` calls are under way: at that many, the session takes no
 * further line and stops reading until one finishes; while the output's
 * buffer is full, no line is taken either. `run()` resolves once the input
 * has ended and every call under way has been answered.
 *
 * A session made by `starting()` reads before its server exists: it answers
 * the greetings (`initialize`, `server/discover`) itself, with the text the
 * protocol layer writes, and starts loading the server once it has written
 * one; the first other message (or a line longer than the default limit, or
 * the input's end) waits for the server, and no line after it is taken until
 * the server is there. If the server fails to load, the waiting request is
 * answered with `-32603` and `run()` rejects with the cause.
 */
export class McpStdioSession {
  private readonly inFlight = new Set<Promise<void>>();
  private readonly maxInFlight: number;
  private readonly session = new McpSession();
  private transport: McpTransport;
  private readonly reader: LineReader;
  private readonly writer: LineWriter;
  /** Set once the input ended: what resolves `run()` once all is taken. */
  private onEnd?: () => void;
  /** What serves the messages; undefined while it loads. */
  private protocol?: McpProtocol;
  /** What loads the server, until it has been called. */
  private loader?: () => Promise<McpStdioServer>;
  /** What the greetings are answered with before the server is there. */
  private readonly greeting?: McpGreetingSettings;
  /** Whether no line is taken until the server is there. */
  private waiting = false;
  /** The message that waits for the server. */
  private held?: { readonly message: unknown };
  /** How `run()` fails when the server does not load. */
  private fail?: (error: unknown) => void;
  /** Why the server did not load, once it failed (before `run()`, say). */
  private failure?: { readonly error: unknown };

  constructor(protocol: McpProtocol, options: McpStdioSessionOptions);
  /** @internal */
  constructor(
    protocol: undefined,
    options: McpStdioStartOptions,
    loader: () => Promise<McpStdioServer>,
  );
  constructor(
    protocol: McpProtocol | undefined,
    private readonly options: McpStdioSessionOptions | McpStdioStartOptions,
    loader?: () => Promise<McpStdioServer>,
  ) {
    this.maxInFlight = options.maxInFlight ?? 64;
    this.protocol = protocol;
    this.loader = loader;
    const { input } = options;
    this.writer = new LineWriter(
      options.output,
      () => input.pause(),
      () => this.take(),
    );
    const isServed = 'caller' in options;
    this.reader = new LineReader(
      isServed ? options.maxMessageSize : DEFAULT_MAX_BODY_SIZE,
    );
    this.transport = this.transportOf(
      isServed ? options.caller : { headers: {} },
    );
    if (!isServed) {
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

  run(): Promise<void> {
    const { input } = this.options;
    const { failure } = this;
    if (failure) {
      return Promise.reject(failure.error);
    }
    return new Promise<void>((resolve, reject) => {
      this.fail = reject;
      input.on('data', (chunk: Buffer | string) => {
        this.reader.push(chunk);
        this.take();
      });
      input.once('end', () => {
        this.onEnd = () => {
          this.line(this.reader.end());
          void this.settled().then(resolve, reject);
        };
        this.take();
      });
      input.once('error', reject);
    });
  }

  /** The transport of this session's messages, for `caller`. */
  private transportOf(caller: McpCallerContext): McpTransport {
    const { writer } = this;
    return {
      kind: 'stdio',
      caller,
      stream: { open: true, send: (message) => writer.write(message) },
    };
  }

  private serverReady(server: McpStdioServer): void {
    this.protocol = server.protocol;
    this.reader.maxBytes = server.maxMessageSize;
    this.transport = this.transportOf(server.caller);
    this.waiting = false;
    const held = this.held;
    this.held = undefined;
    if (held) {
      this.track(this.answer(held.message));
    }
    this.take();
  }

  private serverFailed(error: unknown): void {
    const answer = this.held && startFailureAnswer(this.held.message, error);
    this.held = undefined;
    if (answer) {
      this.writer.write(answer);
    }
    this.writer.flush();
    this.options.input.pause();
    this.failure = { error };
    // Undefined until `run()`, which then fails at once.
    this.fail?.(error);
  }

  /**
   * Takes the lines read while fewer than `maxInFlight` calls are under
   * way, the output is not full and the server is not awaited; otherwise
   * it pauses the input and keeps the rest.
   */
  private take(): void {
    const { input } = this.options;
    while (
      this.inFlight.size < this.maxInFlight &&
      !this.writer.blocked &&
      !this.waiting
    ) {
      // Before the server is there, a line longer than the default limit
      // waits for the server's own.
      const next = this.reader.next(
        this.protocol === undefined ? this.reader.maxBytes : undefined,
      );
      if (next.kind === 'over') {
        this.waitForServer();
        break;
      }
      if (next.kind === 'more') {
        const end = this.onEnd;
        if (end && this.protocol === undefined) {
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
      this.line(next);
    }
    input.pause();
  }

  private line(
    line: { kind: 'too-long' } | { kind: 'line'; text: string },
  ): void {
    if (line.kind === 'too-long') {
      this.writer.write(
        McpProtocolError.invalidRequest(
          `a message is at most ${this.reader.maxBytes} bytes`,
        ).toResponse(null),
      );
      return;
    }
    if (line.text.trim() === '') {
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(line.text);
    } catch {
      this.writer.write(McpProtocolError.parse().toResponse(null));
      return;
    }
    if (this.protocol === undefined) {
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
    const answer =
      this.greeting && earlyGreeting(message, this.greeting, this.session);
    if (answer) {
      this.writer.write(answer);
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

  /** Serves a message (no headers on stdio: its body alone says its revision). */
  private async answer(message: unknown): Promise<void> {
    const response = await this.protocol!.receive(
      classifyMessage(message),
      this.transport,
      this.session,
    );
    if (response !== undefined) {
      this.writer.write(response);
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
    this.writer.flush();
  }
}
