import { buildForSpawnedProcesses } from './source-build';

/** Once before every test file: what the spawned apps and commands load. */
export function setup(): void {
  buildForSpawnedProcesses();
}
