#!/usr/bin/env bash
# Quick start: installs what is missing, builds Retrylab (release) and opens the desktop lab with the
# built-in fault lab running the flaky-api demo scenario. Without a display it runs under Xvfb.
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release --target retrylab
if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" && "${QT_QPA_PLATFORM:-}" != offscreen ]]; then
    echo "retrylab: no display found; running under xvfb-run (set QT_QPA_PLATFORM=offscreen to skip it)"
    exec xvfb-run -a -s "-screen 0 1600x1000x24" build/release/app/retrylab "$@"
fi
exec build/release/app/retrylab "$@"
