import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The app's folder (its package.json), from `src/` and `dist/src/` alike. */
export function appRoot(dir = __dirname): string {
  return existsSync(join(dir, 'package.json')) || dirname(dir) === dir
    ? dir
    : appRoot(dirname(dir));
}
