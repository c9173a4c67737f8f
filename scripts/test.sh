#!/usr/bin/env bash
# Every test: unit and integration suites (vitest), then the browser suites in Debian's Chromium.
# The suites run on an embedded PostgreSQL the run starts (a fresh database per test file); with
# DATABASE_URL set, on that PostgreSQL server instead. With SWIFT_AUTH_URL set, the storage suite also runs against Swift.
set -euo pipefail
cd "$(dirname "$0")/.."

# Every system tool a suite runs, checked up front so a missing one is named with its install
# line instead of failing deep inside a test. Keep in step with README.md and .ci/run.
missing=()
need_tool() { # path, Debian package, what needs it
  [ -x "$1" ] && return 0
  echo "$1 is missing ($3)." >&2
  missing+=("$2")
}
need_tool /usr/bin/chromium chromium "the browser tests drive Debian's Chromium"
need_tool /usr/bin/firefox-esr firefox-esr "the external package page also runs in Debian's Firefox ESR"
need_tool /usr/bin/tar tar "the download tests list and unpack tars with GNU tar"
need_tool /usr/bin/bsdtar libarchive-tools "the tar layout tests read tars with bsdtar too"
need_tool /usr/bin/xxhsum xxhash "the ASC MHL tests check the listed hashes with xxhsum -H2"
need_tool /usr/bin/xmllint libxml2-utils "the ASC MHL tests validate the lists against the format's XSD"
if [ -n "${SWIFT_AUTH_URL:-}" ]; then
  need_tool /usr/bin/swift python3-swiftclient "the Swift leg checks signatures of \`swift tempurl\`"
fi
if [ -x /usr/bin/tar ] && [[ "$(/usr/bin/tar --version 2>/dev/null || true)" != *"GNU tar"* ]]; then
  echo "/usr/bin/tar is not GNU tar; the download tests need GNU tar." >&2
  missing+=(tar)
fi
if [ ${#missing[@]} -gt 0 ]; then
  # A newcomer's machine: install them when this user may (root, or sudo without a password),
  # so `npm test` is the whole set-up; otherwise name the one line to run.
  if [ "$(id -u)" -eq 0 ]; then
    as_root=()
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    as_root=(sudo -n)
  else
    echo "Install them with:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  echo "Installing the Debian packages the tests need: ${missing[*]}" >&2
  "${as_root[@]}" apt-get update -q
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
fi
if [ ! -d node_modules ]; then
  echo "Dependencies are not installed: run npm ci first." >&2
  exit 1
fi

# TEST_SCOPE=storage runs only the suites that reach the database or the object store: the
# server's and the command line's integration files (apps/server, apps/cli/test) and the browser
# suites that send or receive files (e2e/vitest.config.ts). CI's second leg runs it on PostgreSQL
# and Swift, after the first ran everything: the web app's and the packages' own unit files and
# the screens-only browser suites would prove the same thing twice.
unit_files=()
case ${TEST_SCOPE:-all} in
  all) ;;
  storage) unit_files=(apps/server apps/cli/test) ;;
  *) echo "TEST_SCOPE must be all or storage, not '$TEST_SCOPE'." >&2; exit 1 ;;
esac

# The database is named, never its URL: a URL may carry a password.
database="embedded PostgreSQL"
[ -n "${DATABASE_URL:-}" ] && database="PostgreSQL at DATABASE_URL"
echo "== unit and integration tests (database: $database; scope: ${TEST_SCOPE:-all})"
npx vitest run "${unit_files[@]}"

echo "== browser tests (the e2e script builds the web app first)"
npm run test:e2e --silent
