// The comparison behind npm run test:conformance (scripts/conformance.mjs):
// the checks a conformance suite wrote, against the results
// test/conformance/expected-results.json lists for it.

/** How a check did, best last; INFO and SKIPPED checks are not compared. */
const RANK = { MISSING: 0, FAILURE: 1, WARNING: 2, SUCCESS: 3 };

/** A scenario's checks as `{ id: status }`, the worst status of an id that repeats. */
export function statuses(checks) {
  const byId = {};
  for (const { id, status } of checks) {
    if (status in RANK && (!(id in byId) || RANK[status] < RANK[byId[id]])) {
      byId[id] = status;
    }
  }
  return byId;
}

/**
 * One suite's run (`{ scenario: [check] }`) against its listed results
 * (`{ scenario: { why, checks: { id: status } } }`): what did worse than
 * listed (a check gone counts as MISSING, the worst), what is not listed (a
 * check that does not pass, or a reason missing), what did better (an
 * unlisted pass too). Lines of text, for the report.
 */
export function compare(listed, scenarios) {
  const worse = [];
  const unlisted = [];
  const better = [];
  for (const [scenario, entry] of Object.entries(listed)) {
    const actual = statuses(scenarios[scenario] ?? []);
    for (const [id, status] of Object.entries(entry.checks)) {
      const now = actual[id] ?? 'MISSING';
      const line = `${scenario} / ${id}: ${now}, listed ${status}`;
      if (RANK[now] < RANK[status]) worse.push(line);
      if (RANK[now] > RANK[status]) better.push(line);
    }
    if (
      Object.values(entry.checks).some((s) => s !== 'SUCCESS') &&
      !entry.why
    ) {
      unlisted.push(
        `${scenario}: the list gives no reason ("why") for what does not pass`,
      );
    }
  }
  for (const [scenario, checks] of Object.entries(scenarios)) {
    for (const [id, status] of Object.entries(statuses(checks))) {
      if (listed[scenario]?.checks[id] === undefined) {
        (status === 'SUCCESS' ? better : unlisted).push(
          `${scenario} / ${id}: ${status}, not in the list`,
        );
      }
    }
  }
  return { worse, unlisted, better };
}

/**
 * The expected results as `runs` (`{ suite: { scenario: [check] } }`) had
 * them, for each of `names`, each scenario's reason kept while it still
 * does not pass in full, an empty one for a scenario newly short of it.
 */
export function updated(previous, runs, names) {
  const suites = {};
  for (const name of names) {
    const before = previous.suites?.[name]?.scenarios ?? {};
    const scenarios = {};
    for (const [scenario, checks] of Object.entries(runs[name])) {
      const byId = statuses(checks);
      const passes = Object.values(byId).every((s) => s === 'SUCCESS');
      scenarios[scenario] = {
        ...(passes ? {} : { why: before[scenario]?.why ?? '' }),
        checks: byId,
      };
    }
    suites[name] = { scenarios };
  }
  return { ...previous, suites };
}
