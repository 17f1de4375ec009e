#!/usr/bin/env bash
# Removes the frontdesk-agent service. Keeps the command journal (/var/lib/frontdesk-agent: the
# record of every receipt printed, which later refunds refer to) and the configuration and tokens
# (/etc/frontdesk-agent) unless --purge is given. Idempotent: missing pieces are skipped.
#
#   sudo systemd/uninstall.sh [--purge] [--dry-run]
set -euo pipefail

NAME=frontdesk-agent
STAFF_GROUP=frontdesk-staff
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PREFIX=/
DRY_RUN=0
PURGE=0

usage() {
  cat <<EOF
Usage: $(basename "$0") [--purge] [--dry-run] [--prefix DIR]

  --purge        also delete the journal (/var/lib/$NAME), the configuration and tokens
                 (/etc/$NAME) and the $NAME user
  --prefix DIR   uninstall from below DIR instead of / (system changes are then skipped)
  --dry-run      print what would be done; change nothing
EOF
}

die() { printf 'uninstall.sh: %s\n' "$*" >&2; exit 1; }
say() { printf '==> %s\n' "$*"; }
# shellcheck source=install-build.sh
. "$HERE/install-build.sh"

while [ $# -gt 0 ]; do
  case "$1" in
    --purge) PURGE=1; shift ;;
    --dry-run) DRY_RUN=1; shift ;;
    --prefix) [ $# -ge 2 ] || die "$1 needs a directory"; PREFIX=$2; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; die "unknown option: $1" ;;
  esac
done

PREFIX="${PREFIX%/}"
LIVE=0
if [ -z "$PREFIX" ]; then LIVE=1; fi
if [ "$LIVE" = 1 ] && [ "$DRY_RUN" = 0 ] && [ "$(id -u)" != 0 ]; then
  die "run as root (sudo), or use --dry-run"
fi

run() {
  if [ "$DRY_RUN" = 1 ]; then
    printf 'would:'
    printf ' %q' "$@"
    printf '\n'
  else
    "$@"
  fi
}
system() {
  if [ "$LIVE" = 0 ] && [ "$DRY_RUN" = 0 ]; then
    printf 'skipped (not uninstalling from /): %s\n' "$*"
  else
    run "$@"
  fi
}
remove() {
  if [ -e "$1" ] || [ -L "$1" ]; then run rm -rf "$1"; fi
}

if [ "$DRY_RUN" = 1 ]; then say "dry run: nothing is changed"; fi

if [ "$LIVE" = 0 ] || systemctl cat "$NAME.service" >/dev/null 2>&1 || [ "$DRY_RUN" = 1 ]; then
  system systemctl disable --now "$NAME.service" "$NAME.socket"
fi
remove "$PREFIX/etc/systemd/system/$NAME.service"
remove "$PREFIX/etc/systemd/system/$NAME.socket"
remove "$PREFIX/etc/udev/rules.d/99-$NAME.rules"
remove "$PREFIX/usr/bin/$NAME"
remove "$PREFIX/usr/share/bash-completion/completions/$NAME"
remove "$PREFIX/usr/share/zsh/vendor-completions/_$NAME"
remove "$PREFIX/opt/$NAME"
remove "$PREFIX/opt/$NAME.new"
remove "$PREFIX/opt/$NAME.old"
system systemctl daemon-reload
if command -v udevadm >/dev/null 2>&1 || [ "$DRY_RUN" = 1 ]; then
  # Devices plugged in go back to the system's defaults (hidraw root-only, ttyUSB dialout) now.
  system udevadm control --reload-rules
  system udevadm trigger --subsystem-match=hidraw --subsystem-match=tty --action=change
fi
# Throwaway build users an interrupted install left behind (install.sh deletes its own).
if [ "$LIVE" = 1 ]; then
  while IFS=: read -r user _ _ _ comment _; do
    if [[ $user == "$BUILD_USER_PREFIX"* ]] && [ "$comment" = "$BUILD_USER_COMMENT" ]; then
      if [ "$DRY_RUN" = 1 ]; then
        printf 'would: stop the processes of the build user %s and delete it\n' "$user"
      else
        if retire_build_user "$user"; then say "deleted the build user $user, left by an interrupted install"; fi
      fi
    fi
  done < <(getent passwd)
fi

if [ "$PURGE" = 1 ]; then
  remove "$PREFIX/var/lib/$NAME"
  remove "$PREFIX/var/lib/private/$NAME"
  remove "$PREFIX/etc/$NAME"
  if id -u "$NAME" >/dev/null 2>&1; then system userdel "$NAME"; fi
  # Its group is the devices' group too; userdel removes it unless USERGROUPS_ENAB is off.
  if getent group "$NAME" >/dev/null 2>&1; then system groupdel "$NAME"; fi
  # The staff group granted only the agent's socket, which is gone.
  if getent group "$STAFF_GROUP" >/dev/null 2>&1; then system groupdel "$STAFF_GROUP"; fi
  say "removed $NAME with its journal, configuration, tokens and the $STAFF_GROUP group"
else
  say "removed $NAME; kept the journal ($PREFIX/var/lib/$NAME), the configuration and tokens ($PREFIX/etc/$NAME),"
  say "the $NAME user and the staff group $STAFF_GROUP. Run with --purge to delete them too."
fi
