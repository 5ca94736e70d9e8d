#!/bin/sh
# Checks the units the running systemd has loaded, each with the drop-ins
# it really uses, including units under /run (generated and transient
# ones) that `unitguard check --root /` does not see as the manager does.
#
#   examples/host/check-loaded-units.sh [--user] [UNITGUARD-CHECK-OPTIONS...]
#
# e.g. `check-loaded-units.sh --fail-on warning --policy hardened`.
# `systemctl cat` writes every unit file and drop-in with a "# /path" header
# line before it; `unitguard check -` reads that stream from standard input
# and reports findings against those paths.
#
# --user asks the user manager (`systemctl --user cat`). unitguard's own
# --user applies to --root only, so a stream of user units is judged with
# the system manager's rules; for the user manager's rules on the files
# on disk use `unitguard check --root / --user`.
#
# Exit status: unitguard's (0 clean, 1 findings at or above --fail-on,
# 2 usage error); 3 when systemctl gave no unit at all.
set -eu

scope=--system
if [ "${1:-}" = "--user" ]; then
        scope=--user
        shift
fi

stream=$(mktemp "${TMPDIR:-/tmp}/unitguard-cat.XXXXXX")
trap 'rm -f "$stream"' EXIT

# systemctl complains on stderr about units that have no file (devices,
# scopes) and may exit non-zero for them; those are not findings, so only
# an empty stream counts as its failure.
systemctl "$scope" cat --no-pager '*' >"$stream" 2>/dev/null || true
if [ ! -s "$stream" ]; then
        echo "check-loaded-units: systemctl $scope cat returned no unit files" >&2
        exit 3
fi
unitguard check "$@" - <"$stream"
