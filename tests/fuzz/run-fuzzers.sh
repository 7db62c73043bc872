#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the `fuzz` preset (clang, ASan + UBSan, libFuzzer) and runs every fuzz target for SECONDS on its
# checked-in corpus (tests/fuzz/corpus/NAME, read only: new inputs go to a scratch directory) with its
# dictionary. Exits 1 when any target crashes, leaks, times out on an input or breaks a checked property;
# the input that did it is kept (path printed) and becomes a regression test in the normal suite.
#   tests/fuzz/run-fuzzers.sh SECONDS [TARGET...]        e.g. tests/fuzz/run-fuzzers.sh 30
# Environment: RETRYLAB_FUZZ_KEEP=DIR keeps the grown corpora and crash inputs in DIR.
#   RETRYLAB_FUZZ_NO_ALLOC_STACKS=1 (long local runs only, never CI): ASan keeps no stack per allocation
#   (malloc_context_size=0). Its stack depot then stops growing with every new call path, which is a
#   large part of each execution of the JSON targets; a report loses the "allocated by" / "freed by"
#   stacks, so reproduce a crash without it.
set -euo pipefail

seconds=${1:?usage: run-fuzzers.sh SECONDS [TARGET...]}
shift
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

all=(httprequest httprequest_split upstreamresponse structuredfield retryafter ratelimit idempotencykey policyjson
    scenariojson sessionreader journal inspect)
targets=("$@")
((${#targets[@]})) || targets=("${all[@]}")

cmake --preset fuzz >/dev/null
cmake --build --preset fuzz --parallel 2 >/dev/null

work=${RETRYLAB_FUZZ_KEEP:-$(mktemp -d)}
mkdir -p "$work"
export ASAN_OPTIONS="abort_on_error=1:detect_stack_use_after_return=1:${ASAN_OPTIONS:-}"
if [[ ${RETRYLAB_FUZZ_NO_ALLOC_STACKS:-} == 1 && -z ${CI:-} ]]; then
    ASAN_OPTIONS+=":malloc_context_size=0"
    echo "run-fuzzers: RETRYLAB_FUZZ_NO_ALLOC_STACKS=1: no allocation stacks in reports"
fi
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
export QT_QPA_PLATFORM=offscreen

failed=()
for t in "${targets[@]}"; do
    binary="build/fuzz/tests/fuzz/fuzz_$t"
    [[ -x $binary ]] || { echo "run-fuzzers: no target $t" >&2; exit 2; }
    mkdir -p "$work/$t" "$work/crashes"
    args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
        -artifact_prefix="$work/crashes/$t-")
    [[ -f tests/fuzz/$t.dict ]] && args+=(-dict="tests/fuzz/$t.dict")
    case $t in # the longest input generated (longer seeds are cut to it)
    policyjson | scenariojson | sessionreader | journal) args+=(-max_len=65536) ;;
    *) args+=(-max_len=8192) ;;
    esac
    echo "== fuzz_$t: ${seconds}s"
    inputs=("$work/$t" "tests/fuzz/corpus/$t")
    [[ -d tests/fuzz/regressions/$t ]] && inputs+=("tests/fuzz/regressions/$t")
    if "$binary" "${args[@]}" "${inputs[@]}" >"$work/$t.log" 2>&1; then
        grep -E '^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::peak_rss_mb)' "$work/$t.log" | sed 's/^/   /'
    else
        echo "   FAILED: see $work/$t.log and $work/crashes/"
        grep -E 'ERROR:|runtime error|property violated|Test unit written' "$work/$t.log" | head -5 | sed 's/^/   /'
        failed+=("$t")
    fi
done

if ((${#failed[@]})); then
    echo "run-fuzzers: ${#failed[@]} of ${#targets[@]} failed: ${failed[*]}"
    exit 1
fi
echo "run-fuzzers: ${#targets[@]} targets, ${seconds}s each, no crash"
