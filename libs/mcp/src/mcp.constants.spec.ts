import {
  BATCH_PROTOCOL_VERSIONS,
  DEFAULT_CACHE_TTL,
  DEFAULT_MAX_BODY_SIZE,
  DEFAULT_MCP_PATH,
  LATEST_PROTOCOL_VERSION,
  MAX_BATCH_SIZE,
  MODERN_PROTOCOL_VERSIONS,
  SPOKEN_PROTOCOL_VERSIONS,
  SUPPORTED_PROTOCOL_VERSIONS,
  TOOL_NAME_PATTERN,
} from './mcp.constants.js';

describe('MCP constants', () => {
  it('negotiates exactly the 2025 revisions 2025-11-25, 2025-06-18 and 2025-03-26, newest first', () => {
    expect([...SUPPORTED_PROTOCOL_VERSIONS]).toEqual([
      '2025-11-25',
      '2025-06-18',
      '2025-03-26',
    ]);
    const newestFirst = [...SUPPORTED_PROTOCOL_VERSIONS].sort().reverse();
    expect([...SUPPORTED_PROTOCOL_VERSIONS]).toEqual(newestFirst);
    expect(new Set(SUPPORTED_PROTOCOL_VERSIONS).size).toBe(
      SUPPORTED_PROTOCOL_VERSIONS.length,
    );
    for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
      expect(version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  it('LATEST_PROTOCOL_VERSION is 2025-11-25, the first supported one', () => {
    expect(LATEST_PROTOCOL_VERSION).toBe('2025-11-25');
    expect(LATEST_PROTOCOL_VERSION).toBe(SUPPORTED_PROTOCOL_VERSIONS[0]);
  });

  it('cannot change the supported versions at run time', () => {
    expect(Object.isFrozen(SUPPORTED_PROTOCOL_VERSIONS)).toBe(true);
  });

  it('takes batches under 2025-03-26 only, up to 100 messages', () => {
    expect([...BATCH_PROTOCOL_VERSIONS]).toEqual(['2025-03-26']);
    for (const version of BATCH_PROTOCOL_VERSIONS) {
      expect(SUPPORTED_PROTOCOL_VERSIONS).toContain(version);
    }
    expect(Object.isFrozen(BATCH_PROTOCOL_VERSIONS)).toBe(true);
    expect(MAX_BATCH_SIZE).toBe(100);
  });

  it('serves /mcp and takes bodies up to 1 MiB by default', () => {
    expect(DEFAULT_MCP_PATH).toBe('/mcp');
    expect(DEFAULT_MAX_BODY_SIZE).toBe(1_048_576);
  });

  it.each([
    ['orders_create', true],
    ['place-order', true],
    ['A'.repeat(64), true],
    ['A'.repeat(65), false],
    ['', false],
    ['orders.create', false],
    ['orders create', false],
    ['bestellung_ä', false],
    ['orders_create\n', false],
  ])('TOOL_NAME_PATTERN on %j is %s', (name, expected) => {
    expect(TOOL_NAME_PATTERN.test(name)).toBe(expected);
  });
});

describe('MCP constants: protocol revisions', () => {
  it('speaks 2026-07-28 per request, then the 2025 revisions, newest first', () => {
    expect([...MODERN_PROTOCOL_VERSIONS]).toEqual(['2026-07-28']);
    expect([...SPOKEN_PROTOCOL_VERSIONS]).toEqual([
      '2026-07-28',
      '2025-11-25',
      '2025-06-18',
      '2025-03-26',
    ]);
    expect(Object.isFrozen(MODERN_PROTOCOL_VERSIONS)).toBe(true);
    expect(Object.isFrozen(SPOKEN_PROTOCOL_VERSIONS)).toBe(true);
  });

  it('caches tools/list and server/discover for 5 minutes by default', () => {
    expect(DEFAULT_CACHE_TTL).toBe(300_000);
  });
});
