import { CarrierCancel } from './carrier-cancel.js';

describe('CarrierCancel', () => {
  it('calls its listener once, on the first cancel, and is aborted from then on', () => {
    const cancel = new CarrierCancel();
    const heard = vi.fn();
    cancel.addEventListener('abort', heard);
    expect(cancel.aborted).toBe(false);

    cancel.cancel();
    cancel.cancel();

    expect(cancel.aborted).toBe(true);
    expect(heard).toHaveBeenCalledTimes(1);
  });

  it('calls no listener once it was removed, and keeps another one', () => {
    const cancel = new CarrierCancel();
    const removed = vi.fn();
    const other = vi.fn();
    cancel.addEventListener('abort', removed);
    cancel.removeEventListener('abort', other);
    cancel.removeEventListener('abort', removed);
    cancel.cancel();
    expect(removed).not.toHaveBeenCalled();

    const next = new CarrierCancel();
    next.addEventListener('abort', other);
    next.removeEventListener('abort', removed);
    next.cancel();
    expect(other).toHaveBeenCalledTimes(1);
  });
});
