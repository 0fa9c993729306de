/** Exit codes: success, an operation failure, bad usage (`EX_USAGE`), and a failed start. */
export const CLI_EXIT = Object.freeze({
  ok: 0,
  failed: 1,
  usage: 64,
  software: 70,
});
