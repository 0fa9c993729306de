// @ts-expect-error: plain JavaScript, no declarations
import * as results from '../../scripts/conformance-results.mjs';

const { compare, statuses, updated } = results;

/**
 * How `npm run test:conformance` judges a suite's run against
 * test/conformance/expected-results.json: it fails only for a check that does
 * worse than listed or a failure the list does not explain, and reports one
 * that does better.
 */

type Status = 'SUCCESS' | 'WARNING' | 'FAILURE' | 'INFO' | 'SKIPPED';
interface Check {
  id: string;
  status: Status;
}
interface Listed {
  why?: string;
  checks: Record<string, string>;
}
interface Problems {
  worse: string[];
  unlisted: string[];
  better: string[];
}
const judge = compare as (
  listed: Record<string, Listed>,
  run: Record<string, Check[]>,
) => Problems;

const check = (id: string, status: Status): Check => ({ id, status });
const LISTED: Record<string, Listed> = {
  ping: { checks: { ping: 'SUCCESS' } },
  'tools-call-image': {
    why: 'no image content',
    checks: { 'tools-call-image': 'FAILURE', 'wire-schema-valid': 'SUCCESS' },
  },
  'sep-2164': {
    why: 'no resources',
    checks: { 'sep-2164-error-code': 'WARNING' },
  },
};
const AS_LISTED: Record<string, Check[]> = {
  ping: [check('ping', 'SUCCESS')],
  'tools-call-image': [
    check('tools-call-image', 'FAILURE'),
    check('wire-schema-valid', 'SUCCESS'),
  ],
  'sep-2164': [check('sep-2164-error-code', 'WARNING')],
};
const withCheck = (scenario: string, ...checks: Check[]) => ({
  ...AS_LISTED,
  [scenario]: checks,
});

describe('compare', () => {
  it('finds nothing in a run that does as listed', () => {
    expect(judge(LISTED, AS_LISTED)).toEqual({
      worse: [],
      unlisted: [],
      better: [],
    });
  });

  it.each<[string, Record<string, Check[]>, string]>([
    [
      'a pass that fails',
      withCheck('ping', check('ping', 'FAILURE')),
      'ping / ping: FAILURE, listed SUCCESS',
    ],
    [
      'a pass that warns',
      withCheck('ping', check('ping', 'WARNING')),
      'ping / ping: WARNING, listed SUCCESS',
    ],
    [
      'a warning that fails',
      withCheck('sep-2164', check('sep-2164-error-code', 'FAILURE')),
      'sep-2164 / sep-2164-error-code: FAILURE, listed WARNING',
    ],
    [
      'a pass that is gone (the scenario did not run)',
      { ...AS_LISTED, ping: [] },
      'ping / ping: MISSING, listed SUCCESS',
    ],
    [
      'a pass of which one repeat fails',
      withCheck('ping', check('ping', 'SUCCESS'), check('ping', 'FAILURE')),
      'ping / ping: FAILURE, listed SUCCESS',
    ],
  ])('fails %s', (_case, run, line) => {
    expect(judge(LISTED, run)).toEqual({
      worse: [line],
      unlisted: [],
      better: [],
    });
  });

  it('reports a listed failure that passes, without failing', () => {
    const run = withCheck(
      'tools-call-image',
      check('tools-call-image', 'SUCCESS'),
      check('wire-schema-valid', 'SUCCESS'),
    );
    expect(judge(LISTED, run)).toEqual({
      worse: [],
      unlisted: [],
      better: ['tools-call-image / tools-call-image: SUCCESS, listed FAILURE'],
    });
  });

  it('fails a check that does not pass and is not listed, and reports an unlisted pass', () => {
    const run = {
      ...withCheck('ping', check('ping', 'SUCCESS'), check('new', 'WARNING')),
      fresh: [check('fresh', 'SUCCESS')],
    };
    expect(judge(LISTED, run)).toEqual({
      worse: [],
      unlisted: ['ping / new: WARNING, not in the list'],
      better: ['fresh / fresh: SUCCESS, not in the list'],
    });
  });

  it('fails a listed scenario that does not pass in full and gives no reason', () => {
    const listed = {
      ...LISTED,
      'tools-call-image': { ...LISTED['tools-call-image'], why: '' },
    };
    expect(judge(listed, AS_LISTED).unlisted).toEqual([
      'tools-call-image: the list gives no reason ("why") for what does not pass',
    ]);
  });

  it('ignores INFO and SKIPPED checks', () => {
    const run = withCheck(
      'ping',
      check('ping', 'SUCCESS'),
      check('incoming-request', 'INFO'),
      check('sep-2106-anchor', 'SKIPPED'),
    );
    expect(judge(LISTED, run)).toEqual({
      worse: [],
      unlisted: [],
      better: [],
    });
  });
});

describe('statuses', () => {
  it('keeps the worst status of an id, and no INFO or SKIPPED', () => {
    expect(
      statuses([
        check('a', 'SUCCESS'),
        check('a', 'WARNING'),
        check('b', 'FAILURE'),
        check('b', 'SUCCESS'),
        check('c', 'INFO'),
        check('d', 'SKIPPED'),
      ]),
    ).toEqual({ a: 'WARNING', b: 'FAILURE' });
  });
});

describe('updated', () => {
  it('lists the run, keeping a reason while the scenario still falls short', () => {
    const previous = { $comment: 'kept', suites: { s: { scenarios: LISTED } } };
    const run = {
      s: {
        ...AS_LISTED,
        'sep-2164': [check('sep-2164-error-code', 'SUCCESS')],
        fresh: [check('fresh', 'FAILURE')],
      },
    };
    expect(updated(previous, run, ['s'])).toEqual({
      $comment: 'kept',
      suites: {
        s: {
          scenarios: {
            ping: { checks: { ping: 'SUCCESS' } },
            'tools-call-image': LISTED['tools-call-image'],
            'sep-2164': { checks: { 'sep-2164-error-code': 'SUCCESS' } },
            fresh: { why: '', checks: { fresh: 'FAILURE' } },
          },
        },
      },
    });
  });
});
