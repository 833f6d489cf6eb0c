#!/usr/bin/env bash
# Install what the civogo oracle test (tests/providers/b/civogo-oracle.test.ts) needs: Debian's Go
# and the two Go libraries civogo imports from Debian packages (no Go module proxy is ever used).
# Debian 12, as root. Idempotent: installs only what is missing.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
log() { printf '[go-test-env] %s\n' "$*"; }

need=()
command -v go >/dev/null 2>&1 || need+=(golang-go)
[ -d /usr/share/gocode/src/github.com/google/go-querystring ] || need+=(golang-github-google-go-querystring-dev)
[ -d /usr/share/gocode/src/github.com/google/go-cmp ] || need+=(golang-github-google-go-cmp-dev)

if [ ${#need[@]} -eq 0 ]; then
  log "already installed: $(go version)"
  exit 0
fi
[ "$(id -u)" = 0 ] || { log "needs root to apt-get install ${need[*]}" >&2; exit 1; }
log "installing ${need[*]}"
apt-get update -qq >/dev/null
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
log "done: $(go version)"
