#!/usr/bin/env bash
# Installs (or upgrades) frontdesk-agent as a systemd service. Idempotent: run it again after
# pulling a new version. See systemd/README.md.
#
#   sudo systemd/install.sh --client-token-file FILE --access-token-file FILE
#   printf '%s\n%s\n' "$CLIENT" "$ACCESS" | sudo systemd/install.sh --tokens-from-stdin
#   systemd/install.sh --dry-run            # prints what it would do, changes nothing
#
# Tokens are read from files or stdin, never from the command line, and are never printed.
#
# Only the steps that change the system run as root: the service user, copying the application
# into /opt, the launcher, /etc, the unit and the udev rule. `npm ci` and the build (which run the
# install scripts of every dependency) run in a scratch directory as an unprivileged build user,
# `nobody` by default: it owns no files on the machine, so a broken or hostile install script can
# change nothing but that scratch copy (the admin's own account, SUDO_USER, has a home directory
# and sudo rights worth stealing).
set -euo pipefail
umask 022

NAME=frontdesk-agent
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SOURCE="$(cd "$HERE/.." && pwd)"
PREFIX=/
DRY_RUN=0
BUILD=1
START=auto
CLIENT_TOKEN_FILE=
ACCESS_TOKEN_FILE=
TOKENS_FROM_STDIN=0
NODE_BIN=
BUILD_USER=nobody

usage() {
  cat <<EOF
Usage: $(basename "$0") [options]

  --client-token-file FILE   the platform ClientToken (one line); installed as a credential
  --access-token-file FILE   the platform AccessToken (one line); installed as a credential
  --tokens-from-stdin        read the ClientToken, then the AccessToken, one line each, from stdin
  --skip-build               use the dist/ already built in the source tree instead of building
  --start                    start the service even when the configuration was just created
  --no-start                 install and enable, but do not (re)start the service
  --node PATH                the node binary to run the agent with (default: node on PATH)
  --build-user USER          the unprivileged user that runs npm ci and the build when this
                             script runs as root (default: nobody; never root)
  --source DIR               the frontdesk-agent source tree (default: $SOURCE)
  --prefix DIR               install below DIR instead of / (system changes are then skipped)
  --dry-run                  print what would be done; change nothing
  -h, --help                 this text

Tokens are needed on the first install only; later runs keep the installed ones unless new
ones are given.
EOF
}

die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }
say() { printf '==> %s\n' "$*"; }

while [ $# -gt 0 ]; do
  case "$1" in
    --client-token-file) [ $# -ge 2 ] || die "$1 needs a file"; CLIENT_TOKEN_FILE=$2; shift 2 ;;
    --access-token-file) [ $# -ge 2 ] || die "$1 needs a file"; ACCESS_TOKEN_FILE=$2; shift 2 ;;
    --tokens-from-stdin) TOKENS_FROM_STDIN=1; shift ;;
    --skip-build) BUILD=0; shift ;;
    --start) START=yes; shift ;;
    --no-start) START=no; shift ;;
    --node) [ $# -ge 2 ] || die "$1 needs a path"; NODE_BIN=$2; shift 2 ;;
    --build-user) [ $# -ge 2 ] || die "$1 needs a user"; BUILD_USER=$2; shift 2 ;;
    --source) [ $# -ge 2 ] || die "$1 needs a directory"; SOURCE=$(cd "$2" && pwd); shift 2 ;;
    --prefix) [ $# -ge 2 ] || die "$1 needs a directory"; PREFIX=$2; shift 2 ;;
    --dry-run) DRY_RUN=1; shift ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; die "unknown option: $1" ;;
  esac
done

PREFIX="${PREFIX%/}"
LIVE=0
if [ -z "$PREFIX" ]; then LIVE=1; fi
OPT="$PREFIX/opt/$NAME"
ETC="$PREFIX/etc/$NAME"
BIN="$PREFIX/usr/bin/$NAME"
UNIT="$PREFIX/etc/systemd/system/$NAME.service"
RULES="$PREFIX/etc/udev/rules.d/99-$NAME.rules"

# run CMD…: runs a command, or prints it under --dry-run.
run() {
  if [ "$DRY_RUN" = 1 ]; then
    printf 'would:'
    printf ' %q' "$@"
    printf '\n'
  else
    "$@"
  fi
}
# system CMD…: a change to the live system (users, systemd, udev); skipped below another prefix.
system() {
  if [ "$LIVE" = 0 ] && [ "$DRY_RUN" = 0 ]; then
    printf 'skipped (not installing to /): %s\n' "$*"
  else
    run "$@"
  fi
}

# read_token FILE: prints the first line of FILE, checked to be one non-empty word.
read_token() {
  local file=$1 token=
  [ -r "$file" ] || die "cannot read token file $file"
  IFS= read -r token <"$file" || [ -n "$token" ] || die "token file $file is empty"
  token=${token%$'\r'}
  [[ $token =~ ^[^[:space:]]+$ ]] || die "token file $file must hold the token on its first line, without spaces"
  printf '%s' "$token"
}

# write_secret NAME VALUE DEST: installs a secret file, mode 0600, owned by root.
write_secret() {
  local what=$1 value=$2 dest=$3
  if [ "$DRY_RUN" = 1 ]; then
    printf 'would: write the %s to %s (mode 0600, owner root)\n' "$what" "$dest"
    return
  fi
  (
    umask 077
    printf '%s\n' "$value" >"$dest.tmp"
  )
  chmod 0600 "$dest.tmp"
  if [ "$LIVE" = 1 ]; then chown root:root "$dest.tmp"; fi
  mv -f "$dest.tmp" "$dest"
  say "installed the $what as $dest (mode 0600)"
}

# --- checks, before any change ------------------------------------------------------------------

[ -f "$SOURCE/package.json" ] || die "$SOURCE is not the frontdesk-agent source tree (no package.json)"
for f in src/main.ts config/agent.example.yaml systemd/$NAME.service systemd/99-$NAME.rules; do
  [ -f "$SOURCE/$f" ] || die "missing $SOURCE/$f"
done
# The launcher runs node with the environment and flags of the agent's shebang
# (`#!/usr/bin/env -S [NAME=value…] node --flag…` in src/main.ts, kept by the compiler in
# dist/src/main.js), so the service runs as the bin does.
SHEBANG=$(head -n 1 "$SOURCE/src/main.ts")
[[ $SHEBANG =~ ^'#!/usr/bin/env -S '(([A-Z_]+=[A-Za-z0-9._-]+ )*)node(( --[a-z0-9-]+(=[A-Za-z0-9._-]+)?)*)$ ]] ||
  die "unexpected first line of src/main.ts: $SHEBANG"
NODE_ENV_SET=${BASH_REMATCH[1]}
NODE_FLAGS=${BASH_REMATCH[3]}
if [ "$LIVE" = 1 ] && [ "$DRY_RUN" = 0 ] && [ "$(id -u)" != 0 ]; then
  die "run as root (sudo), or use --dry-run"
fi
NODE_BIN=${NODE_BIN:-$(command -v node || true)}
[ -n "$NODE_BIN" ] && [ -x "$NODE_BIN" ] || die "node not found: install Node.js 20.3 or later (or pass --node PATH)"
"$NODE_BIN" -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>20||(a===20&&b>=3)?0:1)' ||
  die "$NODE_BIN is Node.js $("$NODE_BIN" --version); 20.3 or later is required"
case "$NODE_BIN" in
  /home/* | /root/* | /run/user/*) die "$NODE_BIN is in a home directory, which the service cannot see (ProtectHome=yes); install Node.js system-wide" ;;
esac
NPM_BIN=$(command -v npm || true)
[ -n "$NPM_BIN" ] || die "npm not found"
# As root (and in a dry run of a live install, which needs root), npm runs as BUILD_USER.
IS_ROOT=0
if [ "$(id -u)" = 0 ]; then IS_ROOT=1; fi
DROP=0
if [ "$IS_ROOT" = 1 ] || { [ "$DRY_RUN" = 1 ] && [ "$LIVE" = 1 ]; }; then DROP=1; fi
if [ "$DROP" = 1 ]; then
  BUILD_UID=$(id -u "$BUILD_USER" 2>/dev/null) || die "build user $BUILD_USER does not exist (see --build-user)"
  BUILD_GID=$(id -g "$BUILD_USER")
  [ "$BUILD_UID" != 0 ] || die "the build user must not be root (see --build-user)"
  command -v setpriv >/dev/null 2>&1 || die "setpriv (util-linux) is needed to run npm as $BUILD_USER"
fi
if [ "$BUILD" = 0 ] && [ ! -f "$SOURCE/dist/src/main.js" ]; then
  die "--skip-build: $SOURCE/dist/src/main.js is missing; run npm ci && npm run build there first"
fi

CLIENT_TOKEN=
ACCESS_TOKEN=
if [ "$TOKENS_FROM_STDIN" = 1 ]; then
  [ -z "$CLIENT_TOKEN_FILE$ACCESS_TOKEN_FILE" ] || die "use either --tokens-from-stdin or the token files"
  IFS= read -r CLIENT_TOKEN || true
  IFS= read -r ACCESS_TOKEN || true
  CLIENT_TOKEN=${CLIENT_TOKEN%$'\r'}
  ACCESS_TOKEN=${ACCESS_TOKEN%$'\r'}
  [[ $CLIENT_TOKEN =~ ^[^[:space:]]+$ ]] || die "stdin: the first line must be the ClientToken"
  [[ $ACCESS_TOKEN =~ ^[^[:space:]]+$ ]] || die "stdin: the second line must be the AccessToken"
fi
if [ -n "$CLIENT_TOKEN_FILE" ]; then CLIENT_TOKEN=$(read_token "$CLIENT_TOKEN_FILE"); fi
if [ -n "$ACCESS_TOKEN_FILE" ]; then ACCESS_TOKEN=$(read_token "$ACCESS_TOKEN_FILE"); fi
if [ -z "$CLIENT_TOKEN" ] && [ ! -s "$ETC/client-token" ]; then
  die "no ClientToken installed yet: pass --client-token-file FILE or --tokens-from-stdin"
fi
if [ -z "$ACCESS_TOKEN" ] && [ ! -s "$ETC/access-token" ]; then
  die "no AccessToken installed yet: pass --access-token-file FILE or --tokens-from-stdin"
fi

if [ "$DRY_RUN" = 1 ]; then say "dry run: nothing is changed"; fi
say "installing $NAME from $SOURCE into ${PREFIX:-/} with $NODE_BIN ($("$NODE_BIN" --version))"

# --- service user -------------------------------------------------------------------------------

# Its group is also the devices' group (99-frontdesk-agent.rules): no shared desktop group
# (dialout, plugdev: the first desktop user is in them) can open the encoder.
if id -u "$NAME" >/dev/null 2>&1; then
  say "user $NAME exists"
else
  system useradd --system --user-group --home-dir /var/lib/$NAME --no-create-home \
    --shell /usr/sbin/nologin --comment "frontdesk-agent service" "$NAME"
fi

# --- application: build and install dependencies unprivileged, then copy into place -------------

STAGE=
cleanup() { if [ -n "$STAGE" ]; then rm -rf "$STAGE"; fi; }
trap cleanup EXIT
if [ "$DRY_RUN" = 1 ]; then
  WORK=/tmp/frontdesk-agent-build.XXXXXX
else
  STAGE=$(mktemp -d)
  WORK=$STAGE
fi
# builder CMD…: runs CMD as the build user, with HOME and the npm cache inside the scratch directory.
builder() {
  if [ "$DROP" = 1 ]; then
    run setpriv --reuid="$BUILD_UID" --regid="$BUILD_GID" --clear-groups --no-new-privs -- \
      env HOME="$WORK/home" npm_config_cache="$WORK/npm-cache" "$@"
  else
    run "$@"
  fi
}
run mkdir -p "$WORK/build" "$WORK/app" "$WORK/home" "$WORK/npm-cache"
PARTS=(package.json package-lock.json tsconfig.json tsconfig.build.json scripts src drivers config systemd README.md)
if [ "$BUILD" = 1 ]; then
  for part in "${PARTS[@]}"; do
    if [ -e "$SOURCE/$part" ]; then run cp -a "$SOURCE/$part" "$WORK/build/"; fi
  done
else
  run cp -a "$SOURCE/dist" "$WORK/app/dist"
fi
for part in package.json package-lock.json config systemd README.md; do
  if [ -e "$SOURCE/$part" ]; then run cp -a "$SOURCE/$part" "$WORK/app/"; fi
done
if [ "$DROP" = 1 ]; then run chown -R "$BUILD_UID:$BUILD_GID" "$WORK"; fi
if [ "$DROP" = 1 ]; then say "npm runs as $BUILD_USER (uid $BUILD_UID), not as root"; fi
if [ "$BUILD" = 1 ]; then
  say "building (npm ci and npm run build in a scratch copy)"
  builder "$NPM_BIN" --prefix "$WORK/build" ci --no-audit --no-fund
  builder "$NPM_BIN" --prefix "$WORK/build" run build
  builder cp -a "$WORK/build/dist" "$WORK/app/dist"
fi
# The production install has no TypeScript: drop the `prepare` build hook before npm ci runs it.
builder "$NPM_BIN" --prefix "$WORK/app" pkg delete scripts.prepare
say "installing production dependencies (npm ci --omit=dev)"
builder "$NPM_BIN" --prefix "$WORK/app" ci --omit=dev --no-audit --no-fund

# As root from here: the application is copied into place, owned by root, read-only for the service.
NEW="$OPT.new"
run rm -rf "$NEW"
run mkdir -p "$(dirname "$OPT")"
run cp -a "$WORK/app" "$NEW"
if [ "$LIVE" = 1 ] || [ "$IS_ROOT" = 1 ]; then run chown -R root:root "$NEW"; fi
run chmod -R go-w,a+rX "$NEW"
if [ -e "$OPT" ]; then
  run rm -rf "$OPT.old"
  run mv "$OPT" "$OPT.old"
fi
run mv "$NEW" "$OPT"
run rm -rf "$OPT.old"

run mkdir -p "$(dirname "$BIN")"
if [ "$DRY_RUN" = 1 ]; then
  printf 'would: write %s: exec env %s%s%s /opt/%s/dist/src/main.js "$@"\n' "$BIN" "$NODE_ENV_SET" "$NODE_BIN" "$NODE_FLAGS" "$NAME"
else
  printf '#!/bin/sh\n# Written by frontdesk-agent systemd/install.sh\nexec env %s%s%s /opt/%s/dist/src/main.js "$@"\n' \
    "$NODE_ENV_SET" "$NODE_BIN" "$NODE_FLAGS" "$NAME" >"$BIN.tmp"
  chmod 0755 "$BIN.tmp"
  mv -f "$BIN.tmp" "$BIN"
fi

# --- shell completion: generated by the installed agent from its own command line ---------------

for shell in bash zsh; do
  case $shell in
    bash) dest="$PREFIX/usr/share/bash-completion/completions/$NAME" ;;
    zsh) dest="$PREFIX/usr/share/zsh/vendor-completions/_$NAME" ;;
  esac
  if [ "$DRY_RUN" = 1 ]; then
    printf 'would: write %s: %s %s completion %s\n' "$dest" "$NODE_BIN" "$OPT/dist/src/main.js" "$shell"
  elif mkdir -p "$(dirname "$dest")" && "$NODE_BIN" "$OPT/dist/src/main.js" completion "$shell" >"$dest.tmp"; then
    chmod 0644 "$dest.tmp"
    mv -f "$dest.tmp" "$dest"
  else
    rm -f "$dest.tmp"
    say "warning: no $shell completion installed (the agent could not print it)"
  fi
done

# --- configuration and credentials --------------------------------------------------------------

run mkdir -p "$ETC"
run chmod 0755 "$ETC"
FRESH_CONFIG=0
if [ -e "$ETC/agent.yaml" ]; then
  say "keeping the existing configuration $ETC/agent.yaml"
  if grep -Eq '^[[:space:]]*(client|access)TokenFile:[[:space:]]*/etc/' "$ETC/agent.yaml"; then
    say "warning: $ETC/agent.yaml names token files in /etc, which the service user cannot read;"
    say "         comment out platform.clientTokenFile and accessTokenFile to use the credentials"
  fi
else
  FRESH_CONFIG=1
  # Tokens come from the systemd credentials (LoadCredential=), so the example's token-file lines
  # are commented out: the service user cannot read the root-only files in /etc.
  run cp "$SOURCE/config/agent.example.yaml" "$ETC/agent.yaml"
  run sed -i -E \
    -e 's@^([[:space:]]*)((client|access)TokenFile:)@\1# \2@' \
    -e 's@/etc/frontdesk-agent/status-token@/run/credentials/frontdesk-agent.service/status-token@' \
    "$ETC/agent.yaml"
  run chmod 0644 "$ETC/agent.yaml"
fi
if [ -n "$CLIENT_TOKEN" ]; then write_secret "client token" "$CLIENT_TOKEN" "$ETC/client-token"; fi
if [ -n "$ACCESS_TOKEN" ]; then write_secret "access token" "$ACCESS_TOKEN" "$ETC/access-token"; fi
if [ -s "$ETC/status-token" ]; then
  say "keeping the existing status page token $ETC/status-token"
else
  write_secret "status page token" "$(head -c 32 /dev/urandom | base64 | tr -d '\n=+/')" "$ETC/status-token"
fi

# --- systemd unit and udev rule -----------------------------------------------------------------

run mkdir -p "$(dirname "$UNIT")" "$(dirname "$RULES")"
run install -m 0644 "$SOURCE/systemd/$NAME.service" "$UNIT"
run install -m 0644 "$SOURCE/systemd/99-$NAME.rules" "$RULES"
if command -v udevadm >/dev/null 2>&1 || [ "$DRY_RUN" = 1 ]; then
  system udevadm control --reload-rules
  # Devices already plugged in get the rules' group now (a change event re-applies owner and mode).
  system udevadm trigger --subsystem-match=hidraw --subsystem-match=tty --action=change
fi
system systemctl daemon-reload
system systemctl enable "$NAME.service"

if [ "$START" = no ]; then
  say "installed and enabled; start it with: systemctl start $NAME"
elif [ "$FRESH_CONFIG" = 1 ] && [ "$START" = auto ]; then
  say "installed and enabled, not started: the configuration is the example."
  say "edit $ETC/agent.yaml (devices, platform), check it, then start the service:"
  printf '      sudo %s check-config --config /etc/%s/agent.yaml --online\n' "$HERE/as-service.sh" "$NAME"
  printf '      sudo systemctl restart %s\n' "$NAME"
else
  # As the service user with the service's credentials: root never runs the build's output.
  say "checking the configuration (as $NAME)"
  if [ "$LIVE" = 1 ] || [ "$DRY_RUN" = 1 ]; then
    check=("$HERE/as-service.sh" --prefix "${PREFIX:-/}")
    if [ "$DRY_RUN" = 1 ]; then check+=(--dry-run); fi
    "${check[@]}" check-config --config "$ETC/agent.yaml" ||
      die "the configuration has problems (above); fix $ETC/agent.yaml and run this script again"
  else
    printf 'skipped (not installing to /): checking the configuration\n'
  fi
  say "(re)starting $NAME"
  system systemctl restart "$NAME.service" ||
    die "the service did not start; see: journalctl -u $NAME -e"
  say "running: status page on http://127.0.0.1:8720/ (journalctl -u $NAME -f for the log)"
fi
