#!/usr/bin/env bash
# The whole `npm test` suite on the newest Nest 11, as `.ci/run` runs it
# after the Nest 12 runs: a copy of this working tree (node_modules
# included, .git and builds left out) in a temporary directory, the Nest
# packages swapped there for their newest 11 releases (npm install
# --no-save, so package.json and the lock stay Nest 12's), then the libraries
# and the sample built and the suite run. This checkout is left as it was.
#
#   bash scripts/nest11-test.sh          the suite on Nest 11 (about as long as `npm test`)
#   NEST11_KEEP=1 bash scripts/...       keeps the copy and prints its path
set -euo pipefail
cd "$(dirname "$0")/.."

# The newest Nest 11 releases of every @nestjs package the repository
# installs at 12 (the rest, @nestjs/cache-manager and @nestjs/throttler,
# accept both).
NEST11=(
  @nestjs/common@11.2.10
  @nestjs/core@11.2.10
  @nestjs/platform-express@11.2.10
  @nestjs/platform-fastify@11.2.8
  @nestjs/microservices@11.2.6
  @nestjs/testing@11.2.6
  @nestjs/typeorm@11.0.3
  @nestjs/passport@11.0.5
  @nestjs/jwt@11.0.2
)

copy="$(mktemp -d "${TMPDIR:-/tmp}/nestops-nest11-XXXXXX")"
if [ -z "${NEST11_KEEP:-}" ]; then
  trap 'rm -rf "$copy"' EXIT
fi
tar --exclude=./.git --exclude=./dist --exclude=./var --exclude=./reports \
  --exclude='./libs/*/dist' --exclude=./.stryker-tmp -cf - . | tar -xf - -C "$copy"
cd "$copy"
# --legacy-peer-deps: packages installed only for the benchmarks
# (@rekog/mcp-nest) and peers of Nest 12 stay as they are.
npm install --no-save --no-audit --no-fund --legacy-peer-deps "${NEST11[@]}"
node -e '
const core = require("@nestjs/core/package.json").version;
if (!core.startsWith("11.")) throw new Error(`@nestjs/core is ${core}, not 11`);
console.log(`== npm test on Nest ${core} (Node ${process.version})`);
'
npm run build
npm test
if [ -n "${NEST11_KEEP:-}" ]; then
  echo "the copy: $copy"
fi
