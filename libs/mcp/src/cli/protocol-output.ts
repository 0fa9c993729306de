/** Where a command writes its output: the process's real stdout. */
export interface ProtocolOutput {
  /** Writes to stdout; `false` when its buffer is full (wait for `drain`). */
  write(text: string): boolean;
  /** Calls `listener` once stdout has written what it buffered. */
  once(event: 'drain', listener: () => void): void;
  /** Gives stdout back to everyone. */
  restore(): void;
}

/**
 * Keeps stdout for the command's own output: from now until `restore()`,
 * whatever else writes to `process.stdout` (Nest's logger, `console.log`
 * in app code, a library's banner) goes to stderr instead, so an MCP
 * client reading stdout only ever sees protocol messages.
 */
export function claimStdout(): ProtocolOutput {
  const stdout = process.stdout;
  const own = Object.getOwnPropertyDescriptor(stdout, 'write');
  const write = stdout.write.bind(stdout);
  stdout.write = process.stderr.write.bind(
    process.stderr,
  ) as typeof stdout.write;
  return {
    write: (text) => write(text),
    once: (event, listener) => {
      stdout.once(event, listener);
    },
    restore: () => {
      if (own) {
        Object.defineProperty(stdout, 'write', own);
      } else {
        delete (stdout as { write?: unknown }).write;
      }
    },
  };
}
