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
# Only the steps that change the system run as root: the service user, taking the built
# application into /opt, the launcher, /etc, the unit and the udev rule. `npm ci` and the build
# (which run the install scripts of every dependency) run in a scratch directory as a throwaway
# user created for this install and deleted after it; root takes over their output as data and
# never runs any of it (install-build.sh says how and why). The admin's own account (SUDO_USER)
# was not chosen: it has a home directory and sudo rights worth stealing.
set -euo pipefail
umask 022

NAME=frontdesk-agent
# The group of the desk's staff (status.staffGroup in agent.yaml).
STAFF_GROUP=frontdesk-staff
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
# shellcheck source=install-build.sh
. "$HERE/install-build.sh"

while [ $# -gt 0 ]; do
  case "$1" in
    --client-token-file) [ $# -ge 2 ] || die "$1 needs a file"; CLIENT_TOKEN_FILE=$2; shift 2 ;;
    --access-token-file) [ $# -ge 2 ] || die "$1 needs a file"; ACCESS_TOKEN_FILE=$2; shift 2 ;;
    --tokens-from-stdin) TOKENS_FROM_STDIN=1; shift ;;
    --skip-build) BUILD=0; shift ;;
    --start) START=yes; shift ;;
    --no-start) START=no; shift ;;
    --node) [ $# -ge 2 ] || die "$1 needs a path"; NODE_BIN=$2; shift 2 ;;
    --build-user) die "--build-user is gone: the build runs as a throwaway user created for this install" ;;
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
SOCKET_UNIT="$PREFIX/etc/systemd/system/$NAME.socket"
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
for f in app/main.ts config/agent.example.yaml systemd/$NAME.service systemd/$NAME.socket systemd/99-$NAME.rules; do
  [ -f "$SOURCE/$f" ] || die "missing $SOURCE/$f"
done
# The launcher runs node with the environment and flags of the agent's shebang
# (`#!/usr/bin/env -S [NAME=value…] node --flag…` in app/main.ts, kept by the compiler in
# dist/app/main.js), so the service runs as the bin does.
SHEBANG=$(head -n 1 "$SOURCE/app/main.ts")
[[ $SHEBANG =~ ^'#!/usr/bin/env -S '(([A-Z_]+=[A-Za-z0-9._-]+ )*)node(( --[a-z0-9-]+(=[A-Za-z0-9._-]+)?)*)$ ]] ||
  die "unexpected first line of app/main.ts: $SHEBANG"
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
# As root (and in a dry run of a live install, which needs root), npm runs as a throwaway user.
DROP=0
if [ "$(id -u)" = 0 ] || { [ "$DRY_RUN" = 1 ] && [ "$LIVE" = 1 ]; }; then DROP=1; fi
if [ "$DROP" = 1 ]; then
  for tool in setpriv useradd userdel ps; do
    command -v "$tool" >/dev/null 2>&1 || die "$tool is needed to run the build as a throwaway user"
  done
fi
tar --version 2>/dev/null | grep -q 'GNU tar' || die "GNU tar is needed to take over the build's output"
if [ "$BUILD" = 0 ] && [ ! -f "$SOURCE/dist/app/main.js" ]; then
  die "--skip-build: $SOURCE/dist/app/main.js is missing; run npm ci && npm run build there first"
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

# The desk's staff: members may use the agent's staff socket (/run/frontdesk-agent/staff.sock:
# report, void, login), where the kernel tells the agent who asks. No device, no token: the
# agent acts for them and audits their uid. The service joins it (SupplementaryGroups=) only to
# give the socket to it.
if getent group "$STAFF_GROUP" >/dev/null 2>&1; then
  say "group $STAFF_GROUP exists"
else
  system groupadd --system "$STAFF_GROUP"
fi

# --- application: built by a throwaway user, taken over by root as data (install-build.sh) -------

STAGE=
BUILD_USER=
SHIPPING=
cleanup() {
  if [ "$DRY_RUN" = 0 ] && [ "$DROP" = 1 ] && [ -n "$BUILD_USER" ]; then retire_build_user "$BUILD_USER" || true; fi
  if [ -n "$STAGE" ]; then rm -rf "$STAGE"; fi
  if [ -n "$SHIPPING" ]; then rm -rf "$SHIPPING"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
if [ "$DRY_RUN" = 1 ]; then
  STAGE_DIR=/tmp/frontdesk-agent-build.XXXXXX
else
  STAGE=$(mktemp -d)
  STAGE_DIR=$STAGE
fi
if [ "$DROP" = 1 ]; then create_build_user; fi
make_work_dir "$STAGE_DIR"
build_env
builder mkdir -p "$WORK/build" "$WORK/app" "$WORK/home" "$WORK/npm-cache" "$WORK/tmp"
if [ "$BUILD" = 1 ]; then
  feed_build "$SOURCE" "$WORK/build" package.json package-lock.json tsconfig.json tsconfig.build.json \
    scripts app src drivers config systemd README.md
else
  feed_build "$SOURCE" "$WORK/app" dist
fi
feed_build "$SOURCE" "$WORK/app" package.json package-lock.json config systemd README.md docs
if [ "$DROP" = 1 ] && [ "$DRY_RUN" = 0 ]; then
  say "npm runs as $BUILD_USER (uid $BUILD_UID), a user made for this install only, not as root"
fi
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
drop_build_links "$WORK/app"
generate_completion "$WORK/app"

# As root from here: the output arrives as a stream, owned by root, read-only for the service.
run mkdir -p "$(dirname "$OPT")"
if [ "$DRY_RUN" = 0 ]; then SHIPPING="$OPT.new"; fi
ship_build "$OPT"
SHIPPING=
if [ "$DRY_RUN" = 0 ] && [ "$DROP" = 1 ]; then
  retire_build_user "$BUILD_USER" || die "the build user $BUILD_USER could not be retired (above)"
  BUILD_USER=
  say "the build user is gone, with every process it started"
fi

run mkdir -p "$(dirname "$BIN")"
if [ "$DRY_RUN" = 1 ]; then
  printf 'would: write %s: exec env %s%s%s /opt/%s/dist/app/main.js "$@"\n' "$BIN" "$NODE_ENV_SET" "$NODE_BIN" "$NODE_FLAGS" "$NAME"
else
  printf '#!/bin/sh\n# Written by frontdesk-agent systemd/install.sh\nexec env %s%s%s /opt/%s/dist/app/main.js "$@"\n' \
    "$NODE_ENV_SET" "$NODE_BIN" "$NODE_FLAGS" "$NAME" >"$BIN.tmp"
  chmod 0755 "$BIN.tmp"
  mv -f "$BIN.tmp" "$BIN"
fi

# --- shell completion: the build's data files, installed as they are (root runs none of it) -----

for shell in bash zsh; do
  case $shell in
    bash) from="$OPT/completion/$NAME.bash" dest="$PREFIX/usr/share/bash-completion/completions/$NAME" ;;
    zsh) from="$OPT/completion/_$NAME" dest="$PREFIX/usr/share/zsh/vendor-completions/_$NAME" ;;
  esac
  if [ "$DRY_RUN" = 1 ] || [ -f "$from" ]; then
    run mkdir -p "$(dirname "$dest")"
    run install -m 0644 "$from" "$dest"
  else
    say "warning: no $shell completion installed (the build made none)"
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
    -e 's@/etc/frontdesk-agent/metrics-token@/run/credentials/frontdesk-agent.service/metrics-token@' \
    "$ETC/agent.yaml"
fi
# agent.yaml may hold a printer's password: readable by root, the service and the desk's staff
# (the command line reads it too), nobody else — on upgrades too (it used to be 0644).
run chmod 0640 "$ETC/agent.yaml"
system chown "root:$STAFF_GROUP" "$ETC/agent.yaml"
if [ -n "$CLIENT_TOKEN" ]; then write_secret "client token" "$CLIENT_TOKEN" "$ETC/client-token"; fi
if [ -n "$ACCESS_TOKEN" ]; then write_secret "access token" "$ACCESS_TOKEN" "$ETC/access-token"; fi
# Two tokens of the desk's own: the action token (status-token: IT's login, scripts that act)
# and the read-only metrics token (metrics-token: Prometheus). Each desk makes its own.
if [ -s "$ETC/status-token" ]; then
  say "keeping the existing status page token $ETC/status-token"
else
  write_secret "status page token" "$(head -c 32 /dev/urandom | base64 | tr -d '\n=+/')" "$ETC/status-token"
fi
if [ -s "$ETC/metrics-token" ]; then
  say "keeping the existing metrics token $ETC/metrics-token"
else
  write_secret "metrics token" "$(head -c 32 /dev/urandom | base64 | tr -d '\n=+/')" "$ETC/metrics-token"
fi

# --- systemd unit and udev rule -----------------------------------------------------------------

run mkdir -p "$(dirname "$UNIT")" "$(dirname "$RULES")"
run install -m 0644 "$SOURCE/systemd/$NAME.service" "$UNIT"
run install -m 0644 "$SOURCE/systemd/$NAME.socket" "$SOCKET_UNIT"
run install -m 0644 "$SOURCE/systemd/99-$NAME.rules" "$RULES"
if command -v udevadm >/dev/null 2>&1 || [ "$DRY_RUN" = 1 ]; then
  system udevadm control --reload-rules
  # Devices already plugged in get the rules' group now (a change event re-applies owner and mode).
  system udevadm trigger --subsystem-match=hidraw --subsystem-match=tty --action=change
fi
system systemctl daemon-reload
system systemctl enable "$NAME.socket" "$NAME.service"

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
  # Both stop, so that the socket unit can take the port an older agent bound itself; then the
  # socket unit holds it, and the service gets it from there.
  system systemctl stop "$NAME.service" "$NAME.socket"
  system systemctl start "$NAME.socket" "$NAME.service" ||
    die "the service did not start; see: journalctl -u $NAME -e"
  say "running: status page on http://127.0.0.1:8720/ (journalctl -u $NAME -f for the log)"
fi
say "staff log in with: $NAME login (their account must be in $STAFF_GROUP: sudo adduser NAME $STAFF_GROUP)"

