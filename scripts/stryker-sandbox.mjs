// Stryker's build step, run in its sandbox (`.stryker-tmp/sandbox-*`) once the
// files to mutate are instrumented. The tests import the libraries by package
// name, which the project's node_modules link to the project's own libs/, not
// to the sandbox's. So the sandbox gets a node_modules of its own: a link to
// each of the project's packages, but @nestops/* linked to the sandbox's
// libs/ (as npm's workspaces link them), and each library's own
// node_modules. Then the libraries are built there, mutants included.
import { execSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { basename, join, resolve } from 'node:path';

const sandbox = process.cwd();
const project = resolve(sandbox, '../..');
if (
  !basename(sandbox).startsWith('sandbox') ||
  !existsSync(join(project, 'node_modules'))
) {
  throw new Error(`${sandbox} is not a Stryker sandbox of ${project}`);
}

const modules = join(sandbox, 'node_modules');
rmSync(modules, { recursive: true, force: true });
mkdirSync(join(modules, '@nestops'), { recursive: true });
for (const entry of readdirSync(join(project, 'node_modules'))) {
  if (entry !== '@nestops') {
    symlinkSync(join(project, 'node_modules', entry), join(modules, entry));
  }
}
for (const lib of readdirSync(join(sandbox, 'libs'))) {
  symlinkSync(join('..', '..', 'libs', lib), join(modules, '@nestops', lib));
  const own = join(project, 'libs', lib, 'node_modules');
  if (existsSync(own)) {
    symlinkSync(own, join(sandbox, 'libs', lib, 'node_modules'));
  }
}
execSync('npm run -s build:libs', { stdio: 'inherit' });
