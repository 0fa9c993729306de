/**
 * A startup failure: an operation contract or a carrier's configuration that
 * cannot be published. The message starts with the catalogue code, e.g.
 * `PROTOCOLS_CONFLICT_001: ...`, and names the operations involved.
 *
 * @publicApi
 */
export class ContractError extends Error {
  /** Always `ContractError`. */
  override readonly name = 'ContractError';

  constructor(
    /** The catalogue code, e.g. `PROTOCOLS_CONFLICT_001`. */
    readonly code: string,
    detail: string,
  ) {
    super(`${code}: ${detail}`);
  }
}
