#!/usr/bin/env bash
# Sets up everything the server needs on a fresh machine, then starts it on stdio.
# It installs the root package.json: what the build and the bundle need, no more
# (the test command installs its own packages, test/deps/package.json).
# Usage: scripts/start.sh [cdp-mcp flags], e.g. scripts/start.sh --headless --isolated
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${CHROME_PATH:-}" ] && ! command -v chromium >/dev/null 2>&1 && ! command -v google-chrome >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "Installing Debian chromium..." >&2
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >&2
  else
    echo "No Chrome or Chromium found: install one, or set CHROME_PATH." >&2
  fi
fi
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules ]; then
  npm ci --no-audit --no-fund >&2
fi
# The server runs from the bundle users get (the package's bin), built from the sources when older
# (the server's sources only: npm run build compiles the tests and scripts too).
if [ ! -f dist/cdp-mcp.js ] || [ -n "$(find src protocol -newer dist/cdp-mcp.js -name '*.ts' -print -quit)" ]; then
  npm run build:server >&2
  node scripts/bundle.mjs --quiet >&2
fi
# V8 flags: a smaller young generation and size-first heuristics keep the
# server's peak RSS about 20 MB lower (npm run memory-figures).
exec node --max-semi-space-size=1 --optimize-for-size dist/cdp-mcp.js "$@"
