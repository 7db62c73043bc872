#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds a fuzz preset and runs every fuzz target for SECONDS on its checked-in corpus (tests/fuzz/corpus/NAME,
# read only: new inputs go to a scratch directory) with its dictionary. Exits 1 when any target crashes,
# leaks, times out on an input or breaks a checked property; the input that did it is kept (path printed)
# and becomes a regression test in the normal suite.
#   tests/fuzz/run-fuzzers.sh [OPTIONS] SECONDS [TARGET...]        e.g. tests/fuzz/run-fuzzers.sh 30
# Options (long local runs; CI uses none of them):
#   --preset NAME   the build to fuzz: fuzz (default: clang, ASan + UBSan) or fuzz-ubsan (UBSan only, -O2:
#                   several times the executions a second on the allocation-heavy targets, no leak or
#                   memory-error detection of its own, so replay its corpora through `fuzz` afterwards)
#   --runs N        stop a target after N executions (SECONDS 0: no time limit)
#   --replay        fuzz nothing: run every input of the kept corpora (RETRYLAB_FUZZ_KEEP), the checked-in
#                   seeds and the regressions once through the build, e.g. a fuzz-ubsan run's corpora
#                   through the ASan build
# Environment: RETRYLAB_FUZZ_KEEP=DIR keeps the grown corpora and crash inputs in DIR (a later run with
#   the same DIR goes on from them).
#   RETRYLAB_FUZZ_NO_ALLOC_STACKS=1 (long local runs only, never CI): ASan keeps no stack per allocation
#   (malloc_context_size=0). Its stack depot then stops growing with every new call path, which is a
#   large part of each execution of the JSON targets; a report loses the "allocated by" / "freed by"
#   stacks, so reproduce a crash without it.
set -euo pipefail

usage="usage: run-fuzzers.sh [--preset fuzz|fuzz-ubsan] [--runs N] [--replay] SECONDS [TARGET...]"
preset=fuzz
runs=-1
replay=0
while [[ ${1:-} == --* ]]; do
    case $1 in
    --preset) preset=${2:?$usage}; shift 2 ;;
    --runs) runs=${2:?$usage}; shift 2 ;;
    --replay) replay=1; shift ;;
    *) echo "run-fuzzers: unknown option $1; $usage" >&2; exit 2 ;;
    esac
done
[[ $preset == fuzz || $preset == fuzz-ubsan ]] || { echo "run-fuzzers: no preset $preset; $usage" >&2; exit 2; }
[[ $runs =~ ^-?[0-9]+$ ]] || { echo "run-fuzzers: --runs takes a number; $usage" >&2; exit 2; }
seconds=${1:?$usage}
[[ $seconds =~ ^[0-9]+$ ]] || { echo "run-fuzzers: SECONDS is a number; $usage" >&2; exit 2; }
shift
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

all=(httprequest httprequest_split upstreamresponse structuredfield retryafter ratelimit idempotencykey policyjson
    scenariojson sessionreader journal inspect herdexperiment yamlreader)
targets=("$@")
((${#targets[@]})) || targets=("${all[@]}")

cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" --parallel 2 >/dev/null

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
    binary="build/$preset/tests/fuzz/fuzz_$t"
    [[ -x $binary ]] || { echo "run-fuzzers: no target $t" >&2; exit 2; }
    mkdir -p "$work/$t" "$work/crashes"
    args=(-max_total_time="$seconds" -runs="$runs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
        -artifact_prefix="$work/crashes/$t-")
    ((replay)) && args=(-runs=0 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$work/crashes/$t-")
    [[ -f tests/fuzz/$t.dict ]] && args+=(-dict="tests/fuzz/$t.dict")
    case $t in # the longest input generated (longer seeds are cut to it)
    policyjson | scenariojson) args+=(-max_len=65536) ;;
    # A session or journal of a few attempts fits in 8 KiB (small seeds: one run, one attempt); at 64 KiB
    # each execution parsed, wrote and re-read ~20 KiB, 2-5 times slower for the same coverage (20 s
    # runs: sessionreader 18 600/s at 8 KiB, 7 800/s at 64 KiB, 2 871 and 2 893 edges). The large seeds
    # are still read whole by tst_fuzzreplay_*, and their own parsers (policy, scenario) have 64 KiB.
    *) args+=(-max_len=8192) ;;
    esac
    if ((replay)); then
        echo "== fuzz_$t ($preset): replaying $(find -L "$work/$t" tests/fuzz/corpus/$t -type f | wc -l) inputs"
    else
        echo "== fuzz_$t ($preset): ${seconds}s, runs $runs"
    fi
    inputs=("$work/$t" "tests/fuzz/corpus/$t")
    [[ -d tests/fuzz/regressions/$t ]] && inputs+=("tests/fuzz/regressions/$t")
    if "$binary" "${args[@]}" "${inputs[@]}" >"$work/$t.log" 2>&1; then
        grep -E '^(#[0-9]+.*(DONE|INITED)|stat::number_of_executed_units|stat::peak_rss_mb)' "$work/$t.log" | sed 's/^/   /'
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
if ((replay)); then
    echo "run-fuzzers: ${#targets[@]} targets' corpora replayed through $preset, no crash"
else
    echo "run-fuzzers: ${#targets[@]} targets, ${seconds}s each, no crash"
fi
