/** A unit of work waiting for the call's outcome, and the end of its commit or rollback. */
interface HeldCommit {
  readonly ended: Promise<unknown>;
  decide(accepted: boolean): void;
}

/**
 * The units of work of one call that hold their commit until the call's
 * result is final: past every interceptor and exception filter of the app,
 * and serialised under its output contract. The invoker settles them once,
 * then answers when each has ended, so an answer never contradicts what was
 * committed.
 */
export class CallCommits {
  private held?: HeldCommit[];
  private outcome?: boolean;

  /**
   * Resolves with the call's outcome once it is known: true to commit,
   * false to roll back. `ended` settles when that commit or rollback is
   * done; a rejection fails the call with its error. Held after the call
   * was settled (an interceptor that answered without waiting for it): false.
   */
  hold(ended: Promise<unknown>): Promise<boolean> {
    if (this.outcome !== undefined) {
      ended.catch(() => undefined);
      return Promise.resolve(false);
    }
    return new Promise<boolean>((decide) => {
      (this.held ??= []).push({ ended, decide });
    });
  }

  /**
   * Tells every held unit of work the outcome and waits until each has
   * ended; rejects with the error of the first that failed. Undefined,
   * without a promise, when none holds a commit (most calls).
   */
  settle(accepted: boolean): Promise<void> | undefined {
    this.outcome ??= accepted;
    const held = this.held;
    if (held === undefined) {
      return undefined;
    }
    this.held = undefined;
    for (const commit of held) {
      commit.decide(this.outcome);
    }
    return ended(held);
  }
}

async function ended(held: readonly HeldCommit[]): Promise<void> {
  const ends = await Promise.allSettled(held.map((commit) => commit.ended));
  const failed = ends.find((end) => end.status === 'rejected');
  if (failed) {
    throw failed.reason;
  }
}
