import { eventIdOf, newStreamId, parseEventId } from './event-id.js';

describe('event ids', () => {
  it('names a stream of 128 random bits and an event of it, and reads them back', () => {
    const streamId = newStreamId();
    expect(streamId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(Buffer.from(streamId, 'base64url')).toHaveLength(16);
    expect(newStreamId()).not.toBe(streamId);
    expect(parseEventId(eventIdOf(streamId, 42))).toEqual({
      streamId,
      seq: 42,
    });
    expect(parseEventId(` ${eventIdOf(streamId, 1)} `)?.seq).toBe(1);
  });

  it.each([
    undefined,
    '',
    'abc:1',
    `${'A'.repeat(22)}`,
    `${'A'.repeat(22)}:0`,
    `${'A'.repeat(22)}:01`,
    `${'A'.repeat(22)}:-1`,
    `${'A'.repeat(22)}:1234567890`,
    `${'A'.repeat(23)}:1`,
    `${'A'.repeat(21)}+:1`,
  ])('names no event for %j', (id) => {
    expect(parseEventId(id)).toBeUndefined();
  });
});
