#!/bin/sh
# Runs one libFuzzer target from build-fuzz for a while, with the checked-in
# corpus as seeds; new inputs and crashes go to a scratch directory.
# Set-up (once):
#   CC=clang meson setup build-fuzz -Dfuzz=true -Db_sanitize=address,undefined \
#        -Db_lundef=false -Dc_args=-fsanitize=fuzzer-no-link
# Usage: fuzz/run-fuzzer.sh TARGET [SECONDS] [WORKDIR]   (e.g. fuzz-unit-file 600)
set -eu
cd "$(dirname "$0")/.."
target=$1
secs=${2:-600}
work=${3:-/tmp/unitguard-fuzz/$target}

case $target in
fuzz-hwdb-*) dict=fuzz/hwdb.dict ;;
fuzz-policy-load) dict=fuzz/policy.dict ;;
*) dict=fuzz/unit.dict ;;
esac

ninja -C build-fuzz "fuzz/$target" >/dev/null
mkdir -p "$work/corpus" "$work/artifacts"
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1} \
UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1} \
exec nice -n 10 "build-fuzz/fuzz/$target" -max_total_time="$secs" -dict="$dict" \
        -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$work/artifacts/" "$work/corpus" "fuzz/corpus/$target"
