import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '../..');

/** The site's pages under `dir` (absolute), relative to the repository: VitePress's own folder left out. */
export function pagesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      return name === '.vitepress' ? [] : pagesUnder(path);
    }
    return path.endsWith('.md') ? [relative(ROOT, path)] : [];
  });
}
