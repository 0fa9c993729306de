/**
 * A result that its operation's output schema cannot hold. The call fails
 * with `INTERNAL_ERROR_001`; the message, which is logged, says why.
 */
export class OutputContractError extends Error {
  override readonly name = 'OutputContractError';

  constructor(operationId: string, outputName: string, problem: string) {
    super(
      `Operation ${operationId} returned a result that does not match its output schema (${outputName}): ${problem}.`,
    );
    // Where it was thrown says nothing: the message is the whole story.
    this.stack = `${this.name}: ${this.message}`;
  }
}
