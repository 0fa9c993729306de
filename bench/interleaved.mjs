// Runs benchmark scenarios interleaved, round after round, after one warm-up
// round, and prints each scenario's median rate against a baseline's.

/**
 * `measure(run)` resolves to a rate (calls/s) of one scenario's `run`;
 * prints `heading`, then each scenario's median rate and its ratio to the
 * median of `baseline` (named `label` in the output).
 */
export async function runInterleaved({
  scenarios,
  measure,
  rounds,
  heading,
  baseline,
  label,
}) {
  const samples = Object.fromEntries(
    Object.keys(scenarios).map((name) => [name, []]),
  );
  for (const run of Object.values(scenarios)) await measure(run); // warm-up
  for (let round = 0; round < rounds; round++) {
    for (const [name, run] of Object.entries(scenarios))
      samples[name].push(await measure(run));
  }
  const median = (values) =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const base = median(samples[baseline]);
  console.log(heading);
  for (const [name, values] of Object.entries(samples)) {
    const rate = median(values);
    console.log(
      `${name.padEnd(28)} ${rate.toFixed(0).padStart(6)} calls/s   ${(rate / base).toFixed(2)}x ${label}`,
    );
  }
}
