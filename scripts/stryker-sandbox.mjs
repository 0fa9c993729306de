// Stryker's build step, run in its sandbox (`.stryker-tmp/sandbox-*`) once the
// files to mutate are instrumented. The tests import the libraries by package
// name, which the project's node_modules link to the project's own libs/, not
// to the sandbox's. So the sandbox gets a node_modules of its own: a link to
// each of the project's packages, but @nestops/* linked to the sandbox's
// libs/ (as npm's workspaces link them), and each library's own
// node_modules. Then the libraries are built there, mutants included.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { linkModules } from './linked-modules.mjs';

const sandbox = process.cwd();
const project = resolve(sandbox, '../..');
if (
  !basename(sandbox).startsWith('sandbox') ||
  !existsSync(join(project, 'node_modules'))
) {
  throw new Error(`${sandbox} is not a Stryker sandbox of ${project}`);
}

linkModules(project, sandbox);
execSync('npm run -s build:libs', { stdio: 'inherit' });
