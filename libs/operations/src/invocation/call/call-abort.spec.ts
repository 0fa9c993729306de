import { describe, expect, it, vi } from 'vitest';
import { CallAbort } from './call-abort.js';

describe('CallAbort', () => {
  it('makes no AbortController until the signal is asked for or the call aborted', () => {
    const made = vi.spyOn(globalThis, 'AbortController');
    const abort = new CallAbort();
    expect(abort.isReason(new Error('x'))).toBe(false);
    expect(made).not.toHaveBeenCalled();
    const signal = abort.signal;
    expect(made).toHaveBeenCalledTimes(1);
    expect(abort.signal).toBe(signal);
    made.mockRestore();
  });

  it('aborts the signal handed out before and after, with the reason', () => {
    const early = new CallAbort();
    const signal = early.signal;
    const reason = new Error('timed out');
    early.abort(reason);
    expect(signal.aborted).toBe(true);
    expect(early.isReason(reason)).toBe(true);
    expect(early.isReason(new Error('timed out'))).toBe(false);

    const late = new CallAbort();
    late.abort(reason);
    expect(late.signal.aborted).toBe(true);
    expect(late.signal.reason).toBe(reason);
  });

  it('cannot be given up once it has begun to commit', () => {
    const abort = new CallAbort();
    expect(abort.beginCommit()).toBe(true);
    expect(abort.abort(new Error('timed out'))).toBe(false);
    expect(abort.signal.aborted).toBe(false);
  });

  it('cannot begin to commit once it has been given up', () => {
    const abort = new CallAbort();
    expect(abort.abort(new Error('timed out'))).toBe(true);
    expect(abort.beginCommit()).toBe(false);
    expect(abort.signal.aborted).toBe(true);
  });
});
