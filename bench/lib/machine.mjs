// The machine a run measured on.
import { cpus, loadavg, totalmem, platform, release } from 'node:os';

export function machineInfo() {
  const list = cpus();
  return {
    cpu: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    os: `${platform()} ${release()}`,
    loadAverage: loadavg().map((value) => Math.round(value * 100) / 100),
    date: new Date().toISOString(),
  };
}

export const machineLine = (m) =>
  `${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}, ${m.os}; ` +
  `load average at start ${m.loadAverage.join(' / ')}; ${m.date}`;
