// The mutants `npm run test:mutation` ignores, with the reason for each:
// places where every mutant is equivalent (the code behaves the same) or
// where only the Nest 11 pass of .ci/run reaches the code. Kept here, not as
// comments in the libraries' code. Each place is a file, a piece of one line
// of it and the kind of code (a Babel node type) on that line whose mutants
// are ignored, with everything inside it.
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { declareValuePlugin, PluginKind } from '@stryker-mutator/api/plugin';

/** @type {ReadonlyArray<{ file: string, line: string, node: string, reason: string }>} */
export const EQUIVALENT_MUTANTS = [
  {
    file: 'libs/typeorm/src/transaction.interceptor.ts',
    line: 'lastValueFrom(next.handle(), { defaultValue: undefined })',
    node: 'ObjectExpression',
    reason:
      'equivalent: rxjs resolves an empty source to the defaultValue of any config object, {} too',
  },
  {
    file: 'libs/typeorm/src/transaction.interceptor.ts',
    line: "signal.addEventListener('abort', onAbort, { once: true })",
    node: 'ObjectExpression',
    reason:
      'equivalent: the listener is removed in `finally` whether or not it ran',
  },
  {
    file: 'libs/mcp/src/lifecycle/connection-drain.ts',
    line: 'if (wait > 0) {',
    node: 'BinaryExpression',
    reason:
      'equivalent: at 0, `>=` sets a 0 ms timer that makes the same check again',
  },
  {
    file: 'libs/mcp/src/auth/authorization-server.metadata.ts',
    line: "url.pathname === '/' ? ''",
    node: 'BinaryExpression',
    reason:
      "equivalent: the replace of the trailing slash makes '/' the same '' (made `false`, or `'/'` made `''`, a URL's pathname never being '')",
  },
  {
    file: 'libs/mcp/src/auth/mcp-jwt.guard.ts',
    line: "typeof jwt.audience === 'string' ? jwt.audience",
    node: 'BinaryExpression',
    reason:
      'equivalent made `true`: jose takes the frozen list as it is; it only reads it',
  },
  {
    file: 'libs/mcp/src/auth/mcp-jwt.guard.ts',
    line: "return typeof value === 'number' && Number.isFinite(value);",
    node: 'BinaryExpression',
    reason:
      'equivalent made `true`: Number.isFinite is false for anything but a number',
  },
];

const root = resolve(import.meta.dirname, '..');
const lines = new Map();

/** The text of line `n` (1-based) of `file`, read once. */
function lineOf(file, n) {
  if (!lines.has(file)) {
    lines.set(file, readFileSync(file, 'utf8').split('\n'));
  }
  return lines.get(file)[n - 1] ?? '';
}

/** Ignores the places the list names; Stryker asks of every node. */
const ignorer = {
  shouldIgnore(path) {
    const file = path.hub?.file?.opts?.filename;
    const start = path.node.loc?.start.line;
    if (!file || start === undefined) {
      return undefined;
    }
    const { type } = path.node;
    const name = relative(root, file).replace(/^\.stryker-tmp\/[^/]+\//, '');
    const found = EQUIVALENT_MUTANTS.find(
      (place) =>
        place.node === type &&
        name.endsWith(place.file) &&
        lineOf(file, start).includes(place.line),
    );
    return found?.reason;
  },
};

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'equivalent-mutants', ignorer),
];
