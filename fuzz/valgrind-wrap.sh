#!/bin/sh
# Test wrapper for `meson test --setup valgrind`: runs the test with every
# program of the build under valgrind memcheck, and fails the test when
# memcheck saw an error or a definite/indirect leak in any of them.
#
# The test program itself may be a script (python3, sh) that runs the
# unitguard binary given as an argument, often relative to the build
# directory (any ELF file outside the system directories); such arguments are replaced by a
# shim that starts the binary under valgrind. Memcheck writes to log files,
# not to stderr, so tests that compare stderr are not disturbed; its own
# exit code is not used either, so tests that check exit codes still can.
set -u

logdir=$(mktemp -d "${TMPDIR:-/tmp}/unitguard-vg.XXXXXX")
shimdir=$logdir/shims
mkdir -p "$shimdir"

vg="valgrind --tool=memcheck --leak-check=full --show-leak-kinds=definite,indirect \
--errors-for-leak-kinds=definite,indirect --track-fds=no --num-callers=30 \
--log-file=$logdir/vg.%p.log"

is_build_elf() {
        [ -f "$1" ] && [ -x "$1" ] || return 1
        # Programs of the system (interpreters and tools) run as they are.
        case $(readlink -f "$1") in
        /usr/* | /bin/* | /sbin/* | /lib/* | /lib64/*) return 1 ;;
        esac
        [ "$(head -c 4 "$1" | od -An -c | tr -d ' ')" = '177ELF' ]
}

prog=$1
shift
n=0
for arg in "$@"; do
        if is_build_elf "$arg"; then
                n=$((n + 1))
                shim=$shimdir/$n/$(basename "$arg")
                mkdir -p "$shimdir/$n"
                printf '#!/bin/sh\nexec %s %s "$@"\n' "$vg" "$(readlink -f "$arg")" >"$shim"
                chmod +x "$shim"
                arg=$shim
        fi
        set -- "$@" "$arg"
        shift
done

if is_build_elf "$prog"; then
        $vg "$prog" "$@"
else
        "$prog" "$@"
fi
rc=$?

# A log with a non-zero error count, or any leak record, fails the test.
bad=0
for log in "$logdir"/vg.*.log; do
        [ -f "$log" ] || continue
        if grep -q 'ERROR SUMMARY: [1-9]' "$log"; then
                bad=1
                echo "valgrind: errors in $(sed -n 's/^==[0-9]*== Command: //p' "$log" | head -1):" >&2
                cat "$log" >&2
        fi
done
nlogs=$(ls "$logdir" | grep -c '^vg\.')
echo "valgrind: $nlogs processes checked" >&2
rm -rf "$logdir"
[ $bad -eq 0 ] || exit 1
exit $rc
