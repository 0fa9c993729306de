import { ensureSampleBuilt } from './sample-process';

/** Once before every test file: the tests that spawn the sample need it built. */
export function setup(): void {
  ensureSampleBuilt();
}
