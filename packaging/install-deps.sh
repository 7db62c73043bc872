#!/usr/bin/env bash
# Installs the Debian 12 packages Retrylab needs to build, test and run. Idempotent: installs only what is
# missing, runs `apt-get update` at most once. Needs root (or sudo). Extra package names given as arguments
# are installed the same way (`.ci/run` adds ccache).
set -euo pipefail

packages=(
    cmake ninja-build g++ pkg-config
    qt6-base-dev qt6-base-dev-tools qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libgl-dev
    libqt6svg6 qt6-qpa-plugins
    openssl ca-certificates curl
    libssl-dev # core/intercept: the Retrylab CA and the leaves it mints for `serve --proxy` (OpenSSL 3, issue 31)
    xvfb xauth libgl1-mesa-dri
    appstream desktop-file-utils
    python3 python3-jsonschema
    python3-stripe
    libxml2-utils # tests/core/conform: xmllint checks the JUnit report against tests/schemas/junit.xsd
    python3-urllib3 # tests/clients: urllib3.Retry observed through the lab (issue 12 §5)
    python3-tenacity # tests/core/codegen: exported tenacity units run under conform (issue 30)
    python3-locust # retrylab fleet: Locust 2.12 master and workers (tests/cli/tst_cli_fleet, issue 32)
    golang-go golang-github-cenkalti-backoff-dev golang-github-hashicorp-go-retryablehttp-dev # tests/core/codegen: exported Go units built offline, run under conform (issue 30)
    nodejs npm # tests/clients/node: the openai and @aws-sdk/client-s3 npm SDKs under retrylab conform (npm ci)
    clang-14 libclang-rt-14-dev # tests/fuzz: clang with libFuzzer and the sanitizer runtimes (cmake --preset fuzz)
    "$@"
)

missing=()
for p in "${packages[@]}"; do
    # A nodejs from outside Debian (NodeSource) carries its own npm and conflicts with Debian's npm package.
    if [[ $p == npm ]] && command -v npm >/dev/null; then
        continue
    fi
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done

if ((${#missing[@]})); then
    sudo_cmd=()
    if [[ $(id -u) -ne 0 ]]; then
        sudo_cmd=(sudo)
    fi
    echo "retrylab: installing ${missing[*]}"
    "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
