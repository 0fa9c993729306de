import { callerOf, InFlightCalls } from './in-flight-calls.js';

describe('InFlightCalls', () => {
  const alice = callerOf({ authorization: 'Bearer alice' }, '127.0.0.1');
  const mallory = callerOf({ authorization: 'Bearer mallory' }, '127.0.0.1');

  it("cancels a caller's call by its id, and no other caller's or id's", () => {
    const calls = new InFlightCalls();
    const one = calls.track(alice, 1)!;
    const textOne = calls.track(alice, '1')!;
    const malloryOne = calls.track(mallory, 1)!;

    calls.cancel(alice, 1);

    expect(one.aborted).toBe(true);
    expect(textOne.aborted).toBe(false);
    expect(malloryOne.aborted).toBe(false);
  });

  it('keeps the first of two calls under way with one id, and forgets a call once it is over', () => {
    const calls = new InFlightCalls();
    const first = calls.track(alice, 7)!;
    expect(calls.track(alice, 7)).toBeUndefined();

    calls.forget(alice, 7, first);
    const next = calls.track(alice, 7)!;
    calls.cancel(alice, 7);
    expect(first.aborted).toBe(false);
    expect(next.aborted).toBe(true);
  });

  it('forgets only the call it was given', () => {
    const calls = new InFlightCalls();
    const first = calls.track(alice, 8)!;
    calls.forget(alice, 8, calls.track(mallory, 8)!);
    calls.cancel(alice, 8);
    expect(first.aborted).toBe(true);
  });

  it('tells callers apart by Authorization, or by address without one', () => {
    expect(callerOf({ authorization: 'Bearer a' }, '10.0.0.1')).toBe(
      callerOf({ authorization: 'Bearer a' }, '10.0.0.2'),
    );
    expect(callerOf({}, '10.0.0.1')).not.toBe(callerOf({}, '10.0.0.2'));
    expect(callerOf({}, '10.0.0.1')).not.toBe(
      callerOf({ authorization: '10.0.0.1' }, '10.0.0.1'),
    );
  });
});
