// A copy of the repository (Stryker's sandbox, a benchmark's baseline
// worktree) that uses the project's installed packages but its own
// libraries: its node_modules links each of the project's packages, but
// @nestops/* to the copy's own libs/ (as npm's workspaces link them), and
// each of its libraries gets the project's library's own node_modules.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { join } from 'node:path';

/** Links `copy`'s node_modules to `project`'s, @nestops/* to `copy`'s libs/. */
export function linkModules(project, copy) {
  const modules = join(copy, 'node_modules');
  rmSync(modules, { recursive: true, force: true });
  mkdirSync(join(modules, '@nestops'), { recursive: true });
  for (const entry of readdirSync(join(project, 'node_modules'))) {
    if (entry !== '@nestops') {
      symlinkSync(join(project, 'node_modules', entry), join(modules, entry));
    }
  }
  for (const lib of readdirSync(join(copy, 'libs'))) {
    symlinkSync(join('..', '..', 'libs', lib), join(modules, '@nestops', lib));
    const own = join(project, 'libs', lib, 'node_modules');
    const target = join(copy, 'libs', lib, 'node_modules');
    if (existsSync(own) && !existsSync(target)) {
      symlinkSync(own, target);
    }
  }
}
