/**
 * What the calls may ask their client, and how a 2026-07-28 question's
 * round trip is kept safe (`McpModule.forRoot({ asking })`).
 *
 * @publicApi
 */
export interface McpAskingOptions {
  /**
   * The secrets `requestState` is sealed with (AES-256-GCM), each at least
   * 32 characters (`openssl rand -base64 32`): the first seals, every one
   * opens, so a new key goes first and an old one stays until its states
   * expire. The same on every instance. Needed as soon as an operation
   * asks (`confirm`, `elicits`, `requires`); startup fails without it.
   */
  readonly stateKeys?: readonly string[];
  /**
   * How long, in milliseconds, a 2026-07-28 client has to answer a
   * question and retry (the `requestState`'s expiry). Default: 600 000
   * (10 minutes).
   */
  readonly stateTtl?: number;
  /**
   * `destructive`: every destructive operation asks the user to confirm
   * each call, unless its own `confirm: false` says otherwise. Default:
   * only the operations with `confirm: true`.
   */
  readonly confirm?: 'destructive';
  /**
   * Whether a call that needs confirmation runs unconfirmed when the client
   * cannot ask (else it fails with `SECURITY_CONFIRMATION_001`). Default:
   * false.
   */
  readonly runUnconfirmed?: boolean;
}
