#!/usr/bin/env bash
# Runs a frontdesk-agent command the way the service runs: as the service user, with the
# service's credentials, never as root. For what an admin (and install.sh) used to run with sudo:
#
#   sudo systemd/as-service.sh check-config --config /etc/frontdesk-agent/agent.yaml --online
#   sudo systemd/as-service.sh doctor --config /etc/frontdesk-agent/agent.yaml
#
# Why: /opt/frontdesk-agent is the build's output, and the build ran every dependency's install
# script; root running it would hand root to any of them. The service user is what the agent
# runs as anyway. Root's only part is reading the root-only token files in /etc/frontdesk-agent
# and handing copies to the command, as systemd's LoadCredential= does for the service: a private
# directory (mode 0750, group of the service user; files 0440, owned by root, so the command can
# read but not change them), named in $CREDENTIALS_DIRECTORY and deleted afterwards.
set -euo pipefail

NAME=frontdesk-agent
PREFIX=/
SERVICE_USER=$NAME
DRY_RUN=0

usage() {
  cat <<EOF
Usage: $(basename "$0") [options] COMMAND [ARG…]

Runs $NAME COMMAND ARG… as the service user with the service's credentials.

  --service-user USER   the user the service runs as (default: $NAME; never root)
  --prefix DIR          use DIR/etc/$NAME and DIR/usr/bin/$NAME (an install below DIR)
  --dry-run             print what would be run; run nothing
  -h, --help            this text
EOF
}

die() { printf 'as-service.sh: %s\n' "$*" >&2; exit 1; }

while [ $# -gt 0 ]; do
  case "$1" in
    --service-user) [ $# -ge 2 ] || die "$1 needs a user"; SERVICE_USER=$2; shift 2 ;;
    --prefix) [ $# -ge 2 ] || die "$1 needs a directory"; PREFIX=$2; shift 2 ;;
    --dry-run) DRY_RUN=1; shift ;;
    -h | --help) usage; exit 0 ;;
    --) shift; break ;;
    -*) usage >&2; die "unknown option: $1" ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || { usage >&2; die "no command given"; }

PREFIX="${PREFIX%/}"
ETC="$PREFIX/etc/$NAME"
BIN="$PREFIX/usr/bin/$NAME"

ENVIRONMENT=(PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin)
for name in LANG LC_ALL LC_MESSAGES TZ TERM; do
  if [ -n "${!name:-}" ]; then ENVIRONMENT+=("$name=${!name}"); fi
done

if [ "$DRY_RUN" = 1 ]; then
  printf 'would:'
  printf ' %q' setpriv --reuid="$SERVICE_USER" --regid="$SERVICE_USER" --init-groups --no-new-privs -- \
    env -i "${ENVIRONMENT[@]}" "CREDENTIALS_DIRECTORY=<copy-of-the-tokens-in-$ETC>" "$BIN" "$@"
  printf '\n'
  exit 0
fi

[ "$(id -u)" = 0 ] || die "run as root (sudo): it hands the service's credentials to $SERVICE_USER"
ENTRY=$(getent passwd "$SERVICE_USER") || die "no user $SERVICE_USER: install the service first (systemd/install.sh)"
SERVICE_UID=$(printf '%s' "$ENTRY" | cut -d: -f3)
SERVICE_GID=$(printf '%s' "$ENTRY" | cut -d: -f4)
SERVICE_HOME=$(printf '%s' "$ENTRY" | cut -d: -f6)
[ "$SERVICE_UID" != 0 ] && [ "$SERVICE_GID" != 0 ] || die "the service user $SERVICE_USER has uid or gid 0; refusing"
[ -x "$BIN" ] || die "$BIN is missing: install the service first (systemd/install.sh)"

CREDENTIALS=$(mktemp -d)
trap 'rm -rf "$CREDENTIALS"' EXIT
chgrp "$SERVICE_GID" "$CREDENTIALS"
chmod 0750 "$CREDENTIALS"
for credential in client-token access-token status-token; do
  if [ -f "$ETC/$credential" ]; then
    install -m 0440 -o 0 -g "$SERVICE_GID" "$ETC/$credential" "$CREDENTIALS/$credential"
  fi
done

status=0
setpriv --reuid="$SERVICE_UID" --regid="$SERVICE_GID" --init-groups --no-new-privs -- \
  env -i "${ENVIRONMENT[@]}" "HOME=${SERVICE_HOME:-/}" "CREDENTIALS_DIRECTORY=$CREDENTIALS" "$BIN" "$@" ||
  status=$?
exit "$status"
