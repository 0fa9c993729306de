import { describe, expect, it } from 'vitest';
import { CallCommits } from './call-commits.js';

/** A promise the test settles. */
class Ending {
  declare readonly resolve: () => void;
  declare readonly reject: (error: unknown) => void;
  readonly promise = new Promise<void>((resolve, reject) =>
    Object.assign(this, { resolve, reject }),
  );
}

const ending = () => new Ending();

describe('CallCommits', () => {
  it('settles at once, without a promise, when nothing holds a commit', () => {
    expect(new CallCommits().settle(true)).toBeUndefined();
  });

  it("tells each held unit of work the outcome, then waits for each one's end", async () => {
    const commits = new CallCommits();
    const first = ending();
    const second = ending();
    const decisions = [
      commits.hold(first.promise),
      commits.hold(second.promise),
    ];
    let settled = false;
    const settling = commits.settle(true)?.then(() => {
      settled = true;
    });
    expect(await Promise.all(decisions)).toEqual([true, true]);
    first.resolve();
    await Promise.resolve();
    expect(settled).toBe(false);
    second.resolve();
    await settling;
    expect(settled).toBe(true);
  });

  it('rolls back with false, and rejects with the error of a unit of work that failed to end', async () => {
    const commits = new CallCommits();
    const end = ending();
    const decision = commits.hold(end.promise);
    const settling = commits.settle(false);
    expect(await decision).toBe(false);
    const failure = new Error('rollback failed');
    end.reject(failure);
    await expect(settling).rejects.toBe(failure);
  });

  it('keeps the first outcome: a later settle decides nothing anew', async () => {
    const commits = new CallCommits();
    const end = ending();
    const decision = commits.hold(end.promise);
    end.resolve();
    await commits.settle(true);
    await commits.settle(false);
    expect(await decision).toBe(true);
  });

  it('answers false to a commit held after the call was settled, and keeps its failure to itself', async () => {
    const commits = new CallCommits();
    await commits.settle(true);
    const end = ending();
    const decision = commits.hold(end.promise);
    end.reject(new Error('not awaited by anyone'));
    expect(await decision).toBe(false);
  });
});
