#!/usr/bin/env bash
# Consumer test: proves that the apps `nest new` makes today can take the
# packed libraries as docs/get-started/installation.md and quick-start.md say, and that the
# packages are well formed.
#
# 1. Each package is packed once (`prepack` builds it) and checked with
#    @arethetypeswrong/cli (`attw --pack`) and `publint --strict`: both must
#    report nothing.
# 2. For each variant, a throw-away app is made by the pinned @nestjs/cli
#    (`nest new --skip-git --skip-install`), with its own tsconfig, package.json
#    and test runner unchanged. The quick start (examples/quick-start/src) is
#    added as docs/get-started/quick-start.md says (Nest 11's CommonJS starter: relative imports
#    without `.js`), and the Install line (docs/get-started/installation.md) is run with the tarballs
#    (no nestjs-i18n), and then:
#    - exactly one copy of Nest and of @nestops/operations is installed, and
#      nestjs-i18n is not installed at all;
#    - `npm run build` (nest build) writes dist/main.js;
#    - `tsc --noEmit --skipLibCheck false` passes with the starter's tsconfig,
#      on the starter's TypeScript and on each further supported TypeScript,
#      with the starter's `module` setting and (ESM starter) with `node16`;
#    - the starter's own `npm test` runs scripts/consumer/kit.spec.ts (both
#      testing kits) beside its own spec;
#    - the built app is started from / on a free port and
#      scripts/consumer/client.mjs (the official MCP SDK client) checks its
#      serverInfo (the app's package.json), lists the tools with their
#      descriptions, calls one and gets the denials;
#    - the command line (src/cli.ts): an anonymous `invoke` is refused by the
#      guard of the shared setup, alice's goes through, and the stdio host
#      started from / names itself;
#    - a graceful shutdown (scripts/consumer/shutdown.mjs): the quick start
#      under a root module with a slow tool and a slow onModuleDestroy
#      (scripts/consumer/shutdown-main.ts, with `enableShutdownHooks()`) gets
#      SIGTERM with a call under way: the call is answered, the server takes
#      no connection once the root module closes its resources,
#      McpModule warns of no lifecycle fallback, and the process exits 0
#      within the grace period (on Nest 11.1.4, which has no
#      `useProcessExit`, it ends with the SIGTERM Nest raises again once
#      closed).
# 3. nestjs-cls 7.0.0 and 6.3.1: an app with @nestops/mcp installs the
#    tarballs without --legacy-peer-deps and a call reads its CLS context;
#    on 7, npm refuses @nestops/typeorm, naming @nestjs-cls/transactional.
# 4. scripts/peer-ranges.mjs: every peer range accepts the newest release of
#    its package, or scripts/peer-ranges.json says why not.
#
# Uses the node and npm on PATH (CI: Node 24). Environment:
#   CONSUMER_VARIANTS  space-separated variant names (default: all of them):
#                      nest12  Nest 12 ESM starter (@nestjs/cli 12.0.8), TS 6 and 5.8
#                      nest11  Nest 11 CommonJS starter (@nestjs/cli 11.0.24), TS 5.9 and 5.8
#                      nest11.1.4  the same starter on the oldest Nest the packages accept
#   CONSUMER_PACKS     a directory with the nestops-*.tgz to test instead of
#                      packing (e.g. the tarballs about to be published)
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
EXAMPLE="$ROOT/examples/quick-start"
VARIANTS="${CONSUMER_VARIANTS:-nest12 nest11 nest11.1.4}"
NEST12_CLI="@nestjs/cli@12.0.8"
NEST11_CLI="@nestjs/cli@11.0.24"
# TypeScript versions checked beside the starter's own (the oldest supported).
EXTRA_TYPESCRIPT="5.8"

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

LABEL='pack'
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

PACKS="${CONSUMER_PACKS:-}"
if [[ -z "$PACKS" ]]; then
  PACKS="$WORK/packs"
  mkdir -p "$PACKS"
  (cd "$ROOT" && npm pack -w libs/operations -w libs/mcp -w libs/typeorm \
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

# The published shape: types and module format of every entry point for
# node10, node16 (from CommonJS and from ESM) and bundlers, and the manifest.
for package in operations mcp typeorm; do
  LABEL="attw/publint @nestops/$package"
  tgz="$(tarball "$package")"
  (cd "$ROOT" && npx --no -- attw "$tgz" --format ascii) >"$WORK/attw.log" 2>&1 ||
    { cat "$WORK/attw.log" >&2; fail 'attw reports problems'; }
  (cd "$ROOT" && npx --no -- publint run "$tgz" --strict) >"$WORK/publint.log" 2>&1 ||
    { cat "$WORK/publint.log" >&2; fail 'publint reports problems'; }
  grep -q 'All good!' "$WORK/publint.log" ||
    { cat "$WORK/publint.log" >&2; fail 'publint reports something'; }
  echo "consumer $LABEL: OK"
done

for variant in $VARIANTS; do
  started=$SECONDS
  case "$variant" in
    nest12) CLI="$NEST12_CLI" NEST_PIN='' ESM=1 SHUTDOWN_EXIT=0 ;;
    nest11) CLI="$NEST11_CLI" NEST_PIN='' ESM=0 SHUTDOWN_EXIT=0 ;;
    nest11.1.4) CLI="$NEST11_CLI" NEST_PIN='11.1.4' ESM=0 SHUTDOWN_EXIT=SIGTERM ;;
    *) LABEL="$variant" fail 'unknown variant' ;;
  esac
  LABEL="$variant ($CLI)"
  cd "$WORK"
  rm -rf app
  npx -y "$CLI" new app --skip-git --skip-install --package-manager npm \
    >nest-new.log 2>&1 || { cat nest-new.log >&2; fail 'nest new failed'; }
  cd app

  # The quick start, as docs/get-started/quick-start.md says: its files over the starter's
  # app.module.ts and main.ts; Nest 11's CommonJS starter imports without `.js`.
  cp -R "$EXAMPLE/src/." src/
  cp "$ROOT/scripts/consumer/kit.spec.ts" src/kit.spec.ts
  cp "$ROOT/scripts/consumer/shutdown-main.ts" src/shutdown-main.ts
  cp "$ROOT/scripts/consumer/client.mjs" client.mjs
  cp "$ROOT/scripts/consumer/shutdown.mjs" shutdown.mjs
  if [[ "$ESM" == 0 ]]; then
    find src -name '*.ts' -exec sed -i -E "s#(from '\.{1,2}/[^']*)\.js'#\1'#" {} +
  fi
  # The pins of the oldest-Nest variant and the SDK client for client.mjs, then
  # the Install line of docs/get-started/installation.md.
  node - "$NEST_PIN" <<'EOF'
const fs = require('node:fs');
const [pin] = process.argv.slice(2);
const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'));
pkg.devDependencies['@modelcontextprotocol/sdk'] = '^1';
if (pin) {
  for (const name of ['@nestjs/common', '@nestjs/core', '@nestjs/platform-express']) {
    pkg.dependencies[name] = pin;
  }
  pkg.devDependencies['@nestjs/testing'] = pin;
}
fs.writeFileSync('package.json', `${JSON.stringify(pkg, null, 2)}\n`);
EOF
  npm i --no-audit --no-fund --loglevel=error \
    "$OPERATIONS_TGZ" "$MCP_TGZ" class-validator class-transformer >npm-install.log 2>&1 ||
    { cat npm-install.log >&2; fail 'npm install failed'; }
  TS_VERSION="$(installed_version typescript)"
  LABEL="$variant: nest@$(installed_version @nestjs/core) typescript@$TS_VERSION node $(node -v)"

  for package in @nestjs/core @nestjs/common @nestops/operations; do
    assert_single_copy "$package"
  done
  [[ ! -e node_modules/nestjs-i18n ]] || fail 'nestjs-i18n was installed'

  npm run build >build.log 2>&1 || { cat build.log >&2; fail 'npm run build failed'; }
  [[ -f dist/main.js && -f dist/shutdown-main.js ]] ||
    fail 'nest build wrote no dist/main.js or dist/shutdown-main.js'

  # Declarations checked too (`skipLibCheck` false), on each TypeScript.
  checks=("$TS_VERSION:")
  [[ "$ESM" == 1 ]] && checks+=("$TS_VERSION:--module node16 --moduleResolution node16")
  checks+=("$EXTRA_TYPESCRIPT:")
  [[ "$ESM" == 1 ]] && checks+=("$EXTRA_TYPESCRIPT:--module node16 --moduleResolution node16")
  for check in "${checks[@]}"; do
    ts="${check%%:*}"
    flags="${check#*:}"
    if [[ "$ts" == "$TS_VERSION" ]]; then
      tsc=(npx --no -- tsc)
    else
      tsc=(npx -y -p "typescript@$ts" -- tsc)
    fi
    # shellcheck disable=SC2086
    "${tsc[@]}" -p tsconfig.json --noEmit --skipLibCheck false $flags ||
      fail "tsc $ts $flags with --skipLibCheck false failed"
    shown="${flags:-with the module setting of the starter}"
    echo "consumer $LABEL: tsc $("${tsc[@]}" -v | cut -d' ' -f2) $shown --skipLibCheck false: OK"
  done

  npm test >npm-test.log 2>&1 || { cat npm-test.log >&2; fail "the starter's npm test failed"; }
  grep -Eq 'kit\.spec' npm-test.log || { cat npm-test.log >&2; fail 'npm test did not run kit.spec.ts'; }

  PORT="$(node -e "const s = require('node:net').createServer();
    s.listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); });")"
  # Started from / : the app's name must come from the app, not the folder.
  (cd / && PORT="$PORT" exec node "$OLDPWD/dist/main.js") >app.log 2>&1 &
  APP_PID=$!
  if ! node client.mjs "http://127.0.0.1:$PORT" "$APP_PID"; then
    echo "--- app output:" >&2
    cat app.log >&2
    fail 'client checks failed'
  fi
  kill "$APP_PID" 2>/dev/null || true
  wait "$APP_PID" 2>/dev/null || true
  APP_PID=''
  # The command line: the guard of setupApp judges `invoke` as it judges HTTP,
  # and the stdio host, started from another folder, has the name and version
  # of the app's package.json (as over HTTP; runCli's name is the program's).
  set +e
  node dist/cli.js invoke notes.list >cli.out 2>cli.err
  code=$?
  set -e
  [[ "$code" == 1 ]] && grep -q '^SECURITY_DENIED_003: ' cli.err ||
    { cat cli.out cli.err >&2; fail "an anonymous invoke was not refused (exit $code)"; }
  node dist/cli.js invoke notes.create '{"text":"From the shell"}' \
    --authorization 'Bearer alice-token' >cli.out 2>cli.err ||
    { cat cli.out cli.err >&2; fail "alice's invoke failed"; }
  grep -q '"author": "alice"' cli.out || { cat cli.out >&2; fail "alice's invoke printed no note"; }
  APP_DIR="$PWD"
  initialize='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"consumer","version":"1"}}}'
  answer="$(cd / && echo "$initialize" | node "$APP_DIR/dist/cli.js" mcp 2>/dev/null)"
  grep -q '"serverInfo":{"name":"app","version":"0.0.1"}' <<<"$answer" ||
    fail "the stdio host started from / did not name the app: $answer"

  # SIGTERM with a call under way (Nest runs McpModule's lifecycle here).
  node shutdown.mjs dist/shutdown-main.js "$SHUTDOWN_EXIT" ||
    fail 'the graceful shutdown check failed'

  # Every tool has its @Operation description: no startup warning.
  if grep -q 'without a description' app.log; then
    cat app.log >&2
    fail 'the app warned of tools without a description'
  fi

  echo "consumer $LABEL: OK ($((SECONDS - started)) s)"
done

# nestjs-cls, on both majors @nestops/operations accepts: an app with
# @nestops/mcp installs the tarballs without --legacy-peer-deps and serves a
# call in its own CLS context (scripts/consumer/cls-app.mjs), with the
# nestjs-cls copy an ES module app imports and a CommonJS one requires. On 7,
# @nestops/typeorm cannot be installed (@nestjs-cls/transactional still
# declares nestjs-cls ^6.3.0): npm refuses it with ERESOLVE naming both.
for cls in 7.0.0 6.3.1; do
  LABEL="nestjs-cls $cls"
  started=$SECONDS
  app="$WORK/cls-$cls"
  mkdir -p "$app"
  cp "$ROOT/scripts/consumer/cls-app.mjs" "$app/"
  cat >"$app/package.json" <<JSON
{"private": true, "dependencies": {
  "@nestjs/common": "^12.0.0", "@nestjs/core": "^12.0.0",
  "@nestjs/platform-express": "^12.0.0", "reflect-metadata": "^0.2.0",
  "rxjs": "^7.8.0", "class-validator": "^0.15.0", "class-transformer": "^0.5.1",
  "nestjs-cls": "$cls",
  "@nestops/operations": "file:$(tarball operations)",
  "@nestops/mcp": "file:$(tarball mcp)"}}
JSON
  (cd "$app" && npm install --no-audit --no-fund --silent) >"$WORK/cls.log" 2>&1 ||
    { cat "$WORK/cls.log" >&2; fail 'npm install failed'; }
  for copy in import require; do
    answer="$(cd "$app" && CLS_COPY=$copy node cls-app.mjs)" ||
      fail "the app ($copy) failed: $answer"
    grep -q '"structuredContent":{"requestId":"req-42"}' <<<"$answer" ||
      fail "the call did not read its CLS context ($copy): $answer"
  done
  if [[ "$cls" == 7.* ]]; then
    if (cd "$app" && npm install --no-audit --no-fund "$(tarball typeorm)" \
      @nestjs-cls/transactional @nestjs-cls/transactional-adapter-typeorm \
      typeorm @nestjs/typeorm) >"$WORK/cls.log" 2>&1; then
      fail '@nestops/typeorm installed beside nestjs-cls 7'
    fi
    grep -q 'peer nestjs-cls@"^6.3.0" from @nestjs-cls/transactional' "$WORK/cls.log" ||
      { cat "$WORK/cls.log" >&2; fail 'npm did not say why @nestops/typeorm is refused'; }
  fi
  echo "consumer $LABEL: OK ($((SECONDS - started)) s)"
done

# Every peer range against the newest release of its package.
LABEL='peer ranges'
node "$ROOT/scripts/peer-ranges.mjs" || fail 'a peer range excludes the newest release'
