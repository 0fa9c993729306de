import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
// Only a type from vitepress: the loader is bundled as CommonJS, which cannot require it.
import type { LoaderModule } from 'vitepress';

/** One server of the benchmark's side-by-side comparison, as the run measured it. */
interface Measured {
  readonly id: string;
  readonly label: string;
  /** Median requests/s of the rounds. */
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  /** Median server CPU time per request, in µs. */
  readonly cpuUs: number;
}

/** One server of the comparison, against the plain Nest route. */
export interface CompareRow extends Measured {
  /** Requests/s over the route's: the median of the rounds' ratios, and their range. */
  readonly rpsRatio: Ratio;
  /** The route's server CPU per request over this one's (higher: cheaper), round by round. */
  readonly cpuRatio: Ratio;
}

export interface Ratio {
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

/** The newest run of bench/run.mjs with a `compare` section. */
export interface CompareRun {
  /** Its file, under bench/results/. */
  readonly file: string;
  readonly date: string;
  readonly node: string;
  readonly cores: number;
  readonly loadAverage: number;
  readonly rounds: number;
  readonly connections: number;
  readonly rows: readonly CompareRow[];
  /** @nestops/mcp's server CPU per request against each peer's, as bench/README.md gives it. */
  readonly oursOverPeers: Readonly<Record<string, number>>;
}

interface Round {
  readonly rps: number;
  readonly cpuUs: number;
}

interface RunFile {
  readonly machine: {
    readonly node: string;
    readonly cores: number;
    readonly loadAverage: readonly number[];
    readonly date: string;
  };
  readonly compare?: {
    readonly rounds: number;
    readonly connections: number;
    readonly rows: readonly (Measured & {
      readonly rounds: readonly Round[];
    })[];
  };
}

declare const data: CompareRun;
export { data };

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** `of` over `to`, round by round: the median and the range, as bench/run.mjs reads them. */
function ratio(
  of: readonly Round[],
  to: readonly Round[],
  by: (round: Round, base: Round) => number,
): Ratio {
  const ratios = of.map((round, i) => by(round, to[i]));
  return {
    median: median(ratios),
    min: Math.min(...ratios),
    max: Math.max(...ratios),
  };
}

/** Read at build time (`npm run docs:build`): the figures come from the JSON, not the page. */
export default {
  watch: ['../../../bench/results/*.json'],
  load(files: string[]): CompareRun {
    // The files are named by their start time, so the newest sorts last.
    const [file, run] =
      files
        .sort((a, b) => basename(a).localeCompare(basename(b)))
        .map(
          (path) =>
            [path, JSON.parse(readFileSync(path, 'utf8')) as RunFile] as const,
        )
        .filter(([, content]) => content.compare !== undefined)
        .at(-1) ?? [];
    if (!file || !run?.compare) {
      throw new Error('No run in bench/results/ has a compare section.');
    }
    const { rows, rounds, connections } = run.compare;
    const base = rows[0].rounds;
    const ours = rows.find((row) => row.id === 'nestops');
    return {
      file: basename(file),
      date: run.machine.date,
      node: run.machine.node,
      cores: run.machine.cores,
      loadAverage: run.machine.loadAverage[0],
      rounds,
      connections,
      rows: rows.map(({ id, label, rps, p50, p99, cpuUs, rounds: of }) => ({
        id,
        label,
        rps,
        p50,
        p99,
        cpuUs,
        rpsRatio: ratio(of, base, (r, b) => r.rps / b.rps),
        cpuRatio: ratio(of, base, (r, b) => b.cpuUs / r.cpuUs),
      })),
      oursOverPeers: Object.fromEntries(
        rows
          .filter((row) => ours && row.id !== ours.id)
          .map((row) => [
            row.id,
            ratio(ours!.rounds, row.rounds, (o, p) => p.cpuUs / o.cpuUs).median,
          ]),
      ),
    };
  },
} satisfies LoaderModule;
