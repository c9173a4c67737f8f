#!/usr/bin/env bash
# Every test: unit and integration suites (vitest), then the browser suites in Debian's Chromium.
# With DATABASE_URL set, the suites run against that PostgreSQL server (a fresh database per
# test file) instead of PGlite. With SWIFT_AUTH_URL set, the storage suite also runs against Swift.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ]; then
  echo "Debian's chromium is missing; the browser tests need it. Install it with:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y chromium" >&2
  exit 1
fi
if [ ! -d node_modules ]; then
  echo "Dependencies are not installed: run npm ci first." >&2
  exit 1
fi

echo "== unit and integration tests (database: ${DATABASE_URL:+PostgreSQL}${DATABASE_URL:-PGlite})"
npx vitest run

echo "== browser tests (the e2e script builds the web app first)"
npm run test:e2e --silent
