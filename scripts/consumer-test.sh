#!/usr/bin/env bash
# Consumer test: proves that a Nest app outside this repository can install
# @nestops/operations and @nestops/mcp from their tarballs, compile against
# them (strict) and serve MCP tools with them.
#
# Both packages are packed once (`prepack` builds them). Then, for each variant
# of the matrix, a throw-away app is made in a fresh temp dir from
# examples/quick-start/src, installed with npm, compiled with its own tsc,
# checked for a single copy of Nest and of @nestops/operations, started on a
# free port and exercised by scripts/consumer/client.mjs (an MCP SDK client);
# scripts/consumer/kit-check.ts, compiled with the app, runs the `testing`
# entry points of both packages in-process.
#
# Uses the node and npm on PATH. Environment:
#   CONSUMER_MATRIX  space-separated `<nest range>:<typescript range>` pairs;
#                    default: the newest Nest 12 with TypeScript 6, the
#                    newest Nest 11 with TypeScript 5, and the oldest Nest the
#                    packages accept (11.1.4) with TypeScript 5.7
#   CONSUMER_PACKS   a directory with nestops-operations-*.tgz and
#                    nestops-mcp-*.tgz to test instead of packing (e.g. the
#                    tarballs about to be published)
# The tsconfig is examples/quick-start/tsconfig.json, or
# scripts/consumer/tsconfig.nest<major>.json when that exists (Nest 11: what
# `nest new --strict` of @nestjs/schematics 11 generates).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
EXAMPLE="$ROOT/examples/quick-start"
MATRIX="${CONSUMER_MATRIX:-12:~6.0 11:5 11.1.4:~5.7.0}"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/nestops-consumer.XXXXXX")"
APP_PID=''
cleanup() {
  if [[ -n "$APP_PID" ]]; then
    kill "$APP_PID" 2>/dev/null || true
    wait "$APP_PID" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

fail() {
  echo "consumer $LABEL: FAILED: $*" >&2
  exit 1
}

# Prints the version field of an installed package of the app.
installed_version() {
  node -p "require('./node_modules/$1/package.json').version"
}

# Exactly one installed copy of a package, wherever npm put it.
assert_single_copy() {
  local copies
  copies="$(find ./node_modules -path "*/node_modules/$1/package.json" | sort)"
  if [[ "$(grep -c . <<<"$copies")" != 1 ]]; then
    fail "expected one copy of $1, found:"$'\n'"$copies"
  fi
}

LABEL='pack'
PACKS="${CONSUMER_PACKS:-}"
if [[ -z "$PACKS" ]]; then
  PACKS="$WORK/packs"
  mkdir -p "$PACKS"
  (cd "$ROOT" && npm pack -w libs/operations -w libs/mcp \
    --pack-destination "$PACKS" --silent >/dev/null) ||
    fail 'npm pack failed'
fi
PACKS="$(cd "$PACKS" && pwd)"
tarball() {
  local found=("$PACKS"/nestops-"$1"-*.tgz)
  [[ ${#found[@]} == 1 && -f "${found[0]}" ]] ||
    fail "expected one nestops-$1-*.tgz in $PACKS"
  echo "${found[0]}"
}
OPERATIONS_TGZ="$(tarball operations)"
MCP_TGZ="$(tarball mcp)"

for variant in $MATRIX; do
  NEST="${variant%%:*}"
  TS="${variant#*:}"
  LABEL="nest@$NEST typescript@$TS node $(node -v)"
  started=$SECONDS
  APP="$(mktemp -d "$WORK/app.XXXXXX")"
  cd "$APP"

  TSCONFIG="$ROOT/scripts/consumer/tsconfig.nest${NEST%%.*}.json"
  [[ -f "$TSCONFIG" ]] || TSCONFIG="$EXAMPLE/tsconfig.json"
  cp -R "$EXAMPLE/src" src
  cp "$TSCONFIG" tsconfig.json
  cp "$ROOT/scripts/consumer/client.mjs" client.mjs
  cp "$ROOT/scripts/consumer/kit-check.ts" src/kit-check.ts
  cat >package.json <<EOF
{
  "name": "nestops-consumer",
  "private": true,
  "dependencies": {
    "@nestjs/common": "$NEST",
    "@nestjs/core": "$NEST",
    "@nestjs/platform-express": "$NEST",
    "@nestjs/testing": "$NEST",
    "@nestops/mcp": "file:$MCP_TGZ",
    "@nestops/operations": "file:$OPERATIONS_TGZ",
    "class-transformer": "^0.5.1",
    "class-validator": "^0.15.0",
    "reflect-metadata": "^0.2.2",
    "rxjs": "^7.8.1"
  },
  "devDependencies": {
    "@modelcontextprotocol/sdk": "^1",
    "@types/express": "^5",
    "@types/node": "^22",
    "typescript": "$TS"
  }
}
EOF

  npm install --no-audit --no-fund --loglevel=error >npm-install.log 2>&1 ||
    { cat npm-install.log >&2; fail 'npm install failed'; }
  LABEL="nest@$(installed_version @nestjs/core)"
  LABEL+=" typescript@$(installed_version typescript) node $(node -v)"

  for package in @nestjs/core @nestjs/common @nestops/operations; do
    assert_single_copy "$package"
  done
  npm ls --all >/dev/null 2>npm-ls.log ||
    { cat npm-ls.log >&2; fail 'npm ls finds an invalid tree'; }

  npx --no -- tsc -p tsconfig.json || fail 'tsc failed'
  [[ -f dist/main.js ]] || fail 'tsc wrote no dist/main.js'
  # The starters skip declaration files; check them with this TypeScript too.
  npx --no -- tsc -p tsconfig.json --noEmit --skipLibCheck false ||
    fail 'tsc with --skipLibCheck false failed'
  # Apps still on the older `node10` resolution (Nest 10 starters) find the
  # `testing` entry point through `typesVersions`; TypeScript 6 deprecates it.
  if [[ "$(installed_version typescript)" == 5.* ]]; then
    npx --no -- tsc -p tsconfig.json --noEmit --module commonjs \
      --moduleResolution node10 --resolvePackageJsonExports false || fail 'tsc with node10 resolution failed'
  fi

  node dist/kit-check.js || fail 'the testing entry points failed'

  PORT="$(node -e "const s = require('node:net').createServer();
    s.listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); });")"
  PORT="$PORT" node dist/main.js >app.log 2>&1 &
  APP_PID=$!
  if ! node client.mjs "http://127.0.0.1:$PORT" "$APP_PID"; then
    echo "--- app output:" >&2
    cat app.log >&2
    fail 'client checks failed'
  fi
  kill "$APP_PID" 2>/dev/null || true
  wait "$APP_PID" 2>/dev/null || true
  APP_PID=''

  cd "$WORK"
  rm -rf "$APP"
  echo "consumer $LABEL: OK ($((SECONDS - started)) s)"
done
