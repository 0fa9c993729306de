// The results of a run as the text printed at its end and as the Markdown of
// bench/README.md's results part.
import { machineLine } from './machine.mjs';

const int = (value) => Math.round(value).toLocaleString('en-US');
const ms = (value, digits = 0) => `${value.toFixed(digits)} ms`;
const x = (value) => `${value.toFixed(2)}x`;
const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
const us = (value) => `${int(value)} µs`;
const kb = (bytes) => `${(bytes / 1024).toFixed(bytes < 10_240 ? 1 : 0)} kB`;

/** `[header, ...rows]` as aligned columns (numbers right-aligned). */
function columns(table) {
  const widths = table[0].map((_, i) =>
    Math.max(...table.map((row) => String(row[i]).length)),
  );
  return table
    .map((row) =>
      row
        .map((cell, i) =>
          i === 0
            ? String(cell).padEnd(widths[i])
            : String(cell).padStart(widths[i]),
        )
        .join('  '),
    )
    .join('\n');
}

/** `[header, ...rows]` as a Markdown table. */
function markdownTable(table) {
  const [header, ...rows] = table;
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}

function compareTable(compare) {
  return [
    [
      'server',
      'req/s',
      'p50',
      'p99',
      'server CPU/request',
      'x baseline',
      'rounds',
      'x (medians)',
    ],
    ...compare.rows.map((row) => [
      row.label,
      int(row.rps),
      ms(row.p50),
      ms(row.p99),
      us(row.cpuUs),
      x(row.ratio),
      `${row.ratioMin.toFixed(2)}-${row.ratioMax.toFixed(2)}`,
      x(row.rps / compare.rows[0].rps),
    ]),
  ];
}

function compareHeading(compare) {
  const length = compare.seconds
    ? `${compare.warmupSeconds} s warm-up + ${compare.seconds} s`
    : `${compare.requestsPerRound} requests`;
  return (
    `${compare.rounds} rounds (rotated order, each server a fresh process), ` +
    `${length} at ${compare.connections} connections; medians; ` +
    `x baseline = median of the rounds' ratios to the first row (their range in "rounds"); ` +
    `x (medians) = median req/s over the first row's; ` +
    `server CPU/request = the server process's CPU time (user + system, all its threads) over the measured requests`
  );
}

function scaleTable(scale) {
  const apps = [scale.one, scale.many, ...(scale.shared ? [scale.shared] : [])];
  const row = (name, pick) => [name, ...apps.map((app) => pick(app))];
  const list = (lang, field, format) => (s) => format(s.list[lang][field]);
  return [
    [
      'this library, nestjs-i18n en-US + zh-CN',
      '1 operation',
      `${scale.operations} operations, a DTO class each`,
      ...(scale.shared
        ? [
            `${scale.operations} operations, ${scale.operations - 1} sharing one input and one output DTO`,
          ]
        : []),
    ],
    ...(scale.one.startCpuMs === undefined
      ? []
      : [
          row('startup CPU: process start to listening', (s) =>
            ms(s.startCpuMs),
          ),
        ]),
    row('startup: NestFactory.create to listening', (s) => ms(s.bootMs)),
    row('startup: process start to listening', (s) => ms(s.readyMs)),
    row('startup: spawn to ready (wall)', (s) => ms(s.wallMs)),
    row('tools/call req/s', (s) => int(s.callRps)),
    row('tools/call p50 / p99', (s) => `${ms(s.callP50)} / ${ms(s.callP99)}`),
    row('tools/call server CPU/request', (s) => us(s.callCpuUs)),
    ...['en-US', 'zh-CN'].flatMap((lang) => [
      row(`tools/list ${lang} answer size`, list(lang, 'bytes', kb)),
      row(`tools/list ${lang} req/s`, list(lang, 'rps', int)),
      row(
        `tools/list ${lang} p50 / p99 (${scale.connections} connections)`,
        (s) => `${ms(s.list[lang].p50, 1)} / ${ms(s.list[lang].p99, 1)}`,
      ),
      row(`tools/list ${lang} server CPU/request`, list(lang, 'cpuUs', us)),
      row(
        `tools/list ${lang} p50 / p99 (1 connection)`,
        (s) =>
          `${ms(s.list[lang].latencyP50, 2)} / ${ms(s.list[lang].latencyP99, 2)}`,
      ),
    ]),
    row('ping req/s', (s) => int(s.pingRps)),
    row('ping server CPU/request', (s) => us(s.pingCpuUs)),
    row('ping p50 (1 connection)', (s) => ms(s.pingLatencyP50, 2)),
  ];
}

function scaleLines(scale) {
  return [
    ...(scale.startCpuDeltaMs === undefined
      ? []
      : [
          `startup CPU (process start to listening), median of the rounds' differences to the 1-operation app: ` +
            `+${ms(scale.sharedStartCpuDeltaMs)} for +${scale.operations - 1} operations sharing one output DTO, ` +
            `+${ms(scale.startCpuDeltaMs)} for ${scale.operations} distinct DTO classes`,
        ]),
    `+${scale.operations - 1} operations: startup +${ms(scale.startupDeltaMs)} ` +
      `(NestFactory.create to listening; process start to listening +${ms(scale.readyDeltaMs)}), ` +
      `a call ${x(scale.callRatio)} the throughput and ${x(scale.callCpuRatio)} the server CPU (medians of ${scale.rounds} rounds)`,
    `tools/list with ${scale.operations} operations costs the server ` +
      ['en-US', 'zh-CN']
        .map(
          (lang) =>
            `${x(scale.many.list[lang].cpuUs / scale.many.pingCpuUs)} a ping (${lang})`,
        )
        .join(', ') +
      ` in CPU; with 1 operation ` +
      ['en-US', 'zh-CN']
        .map((lang) => x(scale.one.list[lang].cpuUs / scale.one.pingCpuUs))
        .join(', '),
  ];
}

function stdioHeading(stdio) {
  return (
    `${stdio.rounds} rounds (rotated order, each server a fresh process): initialize, one checked call, ` +
    `${int(stdio.warmup)} calls of warm-up, then ${int(stdio.calls)} tools/call lines with ${stdio.inFlight} in flight ` +
    `(a new line for every answer); server CPU/call = the server process's CPU time (user + system, from /proc) over the measured calls; ` +
    `peak RSS = its VmHWM at the end, lowest to highest over the rounds; x SDK v1 = median of the rounds' CPU-per-call ratios`
  );
}

function stdioTable(stdio) {
  return [
    [
      'server',
      'calls/s',
      'server CPU/call',
      'x SDK v1 (CPU)',
      'rounds',
      'peak RSS',
    ],
    ...stdio.rows.map((row) => [
      row.label,
      int(row.callsPerSecond),
      `${row.cpuUs.toFixed(1)} µs`,
      x(row.cpuRatio),
      `${row.cpuRatioMin.toFixed(2)}-${row.cpuRatioMax.toFixed(2)}`,
      `${mb(row.peakRssMin)} - ${mb(row.peakRssMax)}`,
    ]),
  ];
}

function otherLines(results) {
  const lines = [];
  const first = results.stdio?.firstAnswer ?? results.stdioStart;
  if (first) {
    const b = first.breakdown;
    lines.push(
      `stdio, spawn to the first answer (initialize) of the sample's host, ${first.rounds} rounds on ${first.node}, median (lowest-highest): ` +
        first.rows
          .map(
            (r) =>
              `${r.label} ${int(r.ms)} ms (${int(r.msMin)}-${int(r.msMax)}${r.id === 'node' ? '' : `; CPU ${int(r.cpuMs)} ms`})`,
          )
          .join(', '),
      `stdio, where the host's start goes (median ms): Node itself ${int(b.node)}, loading the modules ${int(b.modules)}, ` +
        (b.early
          ? `the first answer ${int(b.answer)} later, before the app loads; then loading the app and `
          : '') +
        `Nest's bootstrap before TypeORM ${int(b.nestBeforeTypeorm)}, TypeORM's initialize ${int(b.typeorm)}, ` +
        `migrations ${int(b.migrations)}, Nest's bootstrap after TypeORM and the first answer ${int(b.nestAfterTypeorm)}`,
    );
  }
  if (results.stdio && !results.stdio.rows)
    // Runs before issue 21: 20,000 lines written at once.
    lines.push(
      `stdio (runCli mcp): ${int(results.stdio.linesPerSecond)} tools/call lines/s ` +
        `(${int(results.stdio.lines)} pipelined lines in ${results.stdio.seconds.toFixed(2)} s)`,
    );
  if (results.memory) {
    const m = results.memory;
    for (const server of Object.values(m.servers)) {
      lines.push(
        `${server.label}: RSS at start ${mb(server.atStart.rss)}, ` +
          server.after
            .map((a) => `after ${int(a.calls)} calls ${mb(a.rss)}`)
            .join(', ') +
          ` (${x(server.rssRatio)} first to last); V8 heap reserved ` +
          server.after.map((a) => mb(a.heapTotal)).join(', ') +
          '; heap in use after a full GC ' +
          server.after.map((a) => mb(a.heapUsedAfterGc)).join(', ') +
          ` (${x(server.heapUsedAfterGcRatio)})`,
      );
    }
  }
  return lines;
}

function targetTable(targets) {
  return [
    ['target', 'this run', 'met'],
    ...targets.map((t) => [t.target, t.measured, t.met ? 'met' : 'not met']),
  ];
}

function profileLines(profile) {
  return Object.entries(profile).map(
    ([name, p]) =>
      `${name} (${p.file}, ${p.totalMs} ms): ` +
      p.areas
        .slice(0, 6)
        .map((a) => `${a.area} ${a.pct}%`)
        .join(', ') +
      '; top functions: ' +
      p.functions
        .slice(0, 5)
        .map((f) => `${f.name} (${f.where}) ${f.pct}%`)
        .join(', '),
  );
}

/** Plain text for the terminal. */
export function renderText(results) {
  const parts = [`\n${results.mode} run: ${machineLine(results.machine)}`];
  if (results.compare)
    parts.push(
      `\nThe same operation (API-key guard, DTO validation, 10 items from memory)\n` +
        compareHeading(results.compare) +
        '\n' +
        columns(compareTable(results.compare)),
    );
  if (results.scale)
    parts.push(
      '\n' +
        columns(scaleTable(results.scale)) +
        '\n' +
        scaleLines(results.scale).join('\n'),
    );
  if (results.stdio?.rows)
    parts.push(
      '\nstdio\n' +
        stdioHeading(results.stdio) +
        '\n' +
        columns(stdioTable(results.stdio)),
    );
  const other = otherLines(results);
  if (other.length) parts.push('\n' + other.join('\n'));
  if (results.profile)
    parts.push('\nCPU profiles\n' + profileLines(results.profile).join('\n'));
  if (results.targets.length)
    parts.push(
      '\nTargets (issues 13 and 21)\n' + columns(targetTable(results.targets)),
    );
  return parts.join('\n');
}

/** Markdown for bench/README.md. */
export function renderMarkdown(results, file) {
  const parts = [
    `Run of ${results.machine.date.slice(0, 10)} (\`${file}\`, ${Math.round(results.seconds / 60)} min): ` +
      `${machineLine(results.machine)}. A shared machine: other work ran at the same time (see ` +
      'the load average), so read the ratios of one run and their range over the rounds, not absolute numbers.',
  ];
  if (results.compare)
    parts.push(
      '### The same operation through each server\n\n' +
        compareHeading(results.compare) +
        '.\n\n' +
        markdownTable(compareTable(results.compare)),
    );
  if (results.scale)
    parts.push(
      `### 1 and ${results.scale.operations} operations\n\n` +
        markdownTable(scaleTable(results.scale)) +
        '\n\n' +
        scaleLines(results.scale).join('\n'),
    );
  if (results.stdio?.rows)
    parts.push(
      '### stdio\n\n' +
        stdioHeading(results.stdio) +
        '.\n\n' +
        markdownTable(stdioTable(results.stdio)),
    );
  const other = otherLines(results);
  if (other.length)
    parts.push('### Memory\n\n' + other.map((l) => `- ${l}`).join('\n'));
  if (results.targets.length)
    parts.push('### Targets\n\n' + markdownTable(targetTable(results.targets)));
  if (results.profile)
    parts.push(
      '### CPU profiles (self time, % of busy samples)\n\n' +
        profileLines(results.profile)
          .map((l) => `- ${l}`)
          .join('\n'),
    );
  if (results.legacy)
    parts.push(
      '### The earlier in-process benchmarks\n\n```\n' +
        Object.values(results.legacy).flat().join('\n') +
        '\n```',
    );
  return parts.join('\n\n');
}
