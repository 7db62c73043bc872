#!/usr/bin/env bash
# Proves the README on a machine that has nothing installed: a pristine `debootstrap --variant=minbase
# bookworm` root, a clean copy of this checkout in it, then `bash packaging/install-deps.sh` and
# `cmake --preset ci` inside it (configure only: that is the step a missing build dependency breaks).
# With --full it also runs both README quick-start commands exactly as written, in the README's order.
#
# Usage: bash packaging/check-fresh-root.sh [--full] [--head] [--keep]
#   --full   also run `bash packaging/run-demo.sh --demo-autorun --screenshot DIR` (it quits by itself
#            after the demo batch; under Xvfb, the root has no display) and `bash .ci/run` in the root
#   --head   copy the committed tree (`git archive HEAD`) instead of the working tree
#   --keep   keep the root afterwards (its path is printed) instead of deleting it
# Needs root (debootstrap, mount, chroot) and Debian's archive. Caches, kept between runs:
#   $RETRYLAB_FRESH_ROOT_CACHE (default /var/cache/retrylab/fresh-root): the pristine root as a tarball
#   (rebuilt when older than $RETRYLAB_FRESH_ROOT_MAX_AGE_DAYS, default 7), debootstrap's .debs and the
#   .debs apt downloads inside the root; /var/cache/retrylab/ccache (or $CCACHE_DIR) is lent to the root
#   as its /var/cache/retrylab/ccache, so `.ci/run` there compiles only what changed.
# The working-tree copy is every tracked file plus untracked files not ignored, as they are on disk, so
# a developer checks what they are about to commit; CI's fresh clone makes the two the same.
set -euo pipefail

full=0 from_head=0 keep=0
for arg in "$@"; do
    case "$arg" in
    --full) full=1 ;;
    --head) from_head=1 ;;
    --keep) keep=1 ;;
    -h | --help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "check-fresh-root: unknown option '$arg' (see --help)" >&2; exit 2 ;;
    esac
done

say() { echo "check-fresh-root: $*"; }
die() { echo "check-fresh-root: $*" >&2; exit 1; }

[[ $(id -u) -eq 0 ]] || die "needs root (debootstrap, mount and chroot); run it as root or with sudo"
[[ "${RETRYLAB_IN_FRESH_ROOT:-}" != 1 ]] || die "already inside a fresh root; not nesting another"

checkout=$(cd "$(dirname "$0")/.." && pwd)
cache=${RETRYLAB_FRESH_ROOT_CACHE:-/var/cache/retrylab/fresh-root}
max_age_days=${RETRYLAB_FRESH_ROOT_MAX_AGE_DAYS:-7}
mirror=${RETRYLAB_DEBIAN_MIRROR:-http://deb.debian.org/debian}
security_mirror=${RETRYLAB_DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
ccache_dir=${CCACHE_DIR:-/var/cache/retrylab/ccache}
tarball="$cache/bookworm-minbase.tar.gz"
mkdir -p "$cache/debootstrap-debs" "$cache/apt-archives/partial" "$ccache_dir"

# One run at a time while the pristine root is made and apt fills the shared .deb cache (apt locks it).
exec 9>"$cache/lock"
if ! flock -n 9; then
    say "waiting for another run to finish (lock $cache/lock)"
    flock 9
fi

# Each step prints its name and time; a failure names the step and stops. A step runs in a subshell with
# `set -e` in force (it would not be in a function called from an `if` or `||`).
timings=()
hint=
step() {
    local name=$1 t0 rc
    shift
    say "── $name"
    t0=$(date +%s)
    set +e
    (set -e; "$@")
    rc=$?
    set -e
    timings+=("$(printf '%5d s  %s' $(($(date +%s) - t0)) "$name")")
    if ((rc != 0)); then
        echo "check-fresh-root: FAILED at step '$name' (exit $rc)." >&2
        if [[ -n "$hint" ]]; then echo "check-fresh-root: $hint" >&2; fi
        exit "$rc"
    fi
    say "── $name: done in $(($(date +%s) - t0)) s"
    hint=
}

ensure_host_tools() {
    local missing=()
    command -v debootstrap >/dev/null || missing+=(debootstrap)
    command -v git >/dev/null || missing+=(git)
    if ((${#missing[@]})); then
        say "installing ${missing[*]} on this machine"
        DEBIAN_FRONTEND=noninteractive apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
    fi
}

# The pristine root: debootstrap's minbase plus the apt sources a Debian 12 installer writes (the release,
# its updates and security), nothing else. Built into a temporary folder and moved into place whole.
make_pristine() {
    local fresh_enough
    fresh_enough=$(find "$tarball" -maxdepth 0 -mtime "-$max_age_days" 2>/dev/null || true)
    if [[ -n "$fresh_enough" ]]; then
        say "reusing $tarball ($(du -h "$tarball" | cut -f1), $(date -r "$tarball" '+%F %R'))"
        return 0
    fi
    local tmp
    tmp=$(mktemp -d /var/tmp/retrylab-debootstrap.XXXXXX)
    # No mounts are made here (debootstrap unmounts its own), so deleting it on failure is safe.
    if ! debootstrap --variant=minbase --cache-dir="$cache/debootstrap-debs" bookworm "$tmp/root" "$mirror"; then
        tail -n 30 "$tmp/root/debootstrap/debootstrap.log" 2>/dev/null || true
        rm -rf --one-file-system "$tmp"
        return 1
    fi
    cat >"$tmp/root/etc/apt/sources.list" <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb $security_mirror bookworm-security main
EOF
    chroot "$tmp/root" apt-get clean
    tar -C "$tmp/root" --numeric-owner -czf "$tarball.part" .
    mv "$tarball.part" "$tarball"
    rm -rf --one-file-system "$tmp"
    say "cached the pristine root in $tarball ($(du -h "$tarball" | cut -f1))"
}

# ── the root and its mounts, all undone on exit whatever happens ────────────────────────────────────────
root=$(mktemp -d /var/tmp/retrylab-fresh-root.XXXXXX)
mount_in_root() { # mount_in_root TARGET-IN-ROOT mount-arguments...
    mkdir -p "$root$1"
    mount "${@:2}" "$root$1"
}
# Every mount point at or under the root, deepest first (read from the kernel, so a mount made by a step
# that failed half-way is found too).
mounts_under_root() { awk -v r="$root" '$5 == r || index($5, r "/") == 1 { print $5 }' /proc/self/mountinfo | sort -r; }
cleanup() {
    local rc=$? m
    trap - EXIT INT TERM
    for m in $(mounts_under_root); do
        umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || echo "check-fresh-root: could not unmount $m" >&2
    done
    if [[ -n "$(mounts_under_root)" ]]; then
        echo "check-fresh-root: something is still mounted under $root; not deleting it" >&2
    elif ((keep)); then
        say "kept the root: $root (delete it with rm -rf --one-file-system)"
    else
        rm -rf --one-file-system "$root"
    fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

unpack_root() {
    tar -C "$root" --numeric-owner -xzf "$tarball"
    cp -L /etc/resolv.conf "$root/etc/resolv.conf"
}

copy_checkout() {
    mkdir -p "$root/src/retrylab"
    if ((from_head)); then
        say "copying the committed tree (git archive HEAD $(git -C "$checkout" rev-parse --short HEAD))"
        git -C "$checkout" archive --format=tar HEAD | tar -C "$root/src/retrylab" -xf -
    else
        say "copying the working tree (tracked and untracked files, not ignored ones such as build/)"
        git -C "$checkout" ls-files -z --cached --others --exclude-standard |
            while IFS= read -r -d '' f; do [[ -e "$checkout/$f" || -L "$checkout/$f" ]] && printf '%s\0' "$f"; done |
            tar -C "$checkout" --null --no-recursion -T - -cf - | tar -C "$root/src/retrylab" -xf -
    fi
}

mount_all() {
    mount_in_root /proc -t proc proc
    mount_in_root /sys -t sysfs sys
    mount_in_root /dev --rbind /dev
    mount --make-rslave "$root/dev" # unmounting inside the root never reaches the machine's /dev
    mount_in_root /var/cache/apt/archives --bind "$cache/apt-archives"
    mount_in_root /var/cache/retrylab/ccache --bind "$ccache_dir" # where .ci/run keeps it
}

# Runs a command in the root as a fresh root login would: root, a clean environment, no display.
in_root() {
    env -i HOME=/root LANG=C.UTF-8 TERM=dumb PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        ${CI:+CI="$CI"} RETRYLAB_IN_FRESH_ROOT=1 \
        chroot "$root" /bin/bash -c "cd /src/retrylab && $1"
}

demo_shots=/tmp/retrylab-demo-shots
run_demo() {
    # --screenshot makes the app quit once the autorun batch has ended. The timeout only catches a hang: it
    # covers the release build too, which on a loaded 2-core machine took over 20 minutes.
    in_root "timeout 3600 bash packaging/run-demo.sh --demo-autorun --screenshot $demo_shots" || return
    [[ -s "$root$demo_shots/main.png" ]] || { echo "check-fresh-root: the demo exited but saved no main.png" >&2; return 1; }
    say "the demo ran its batch and saved its views ($(ls "$root$demo_shots" | wc -l) pictures)"
}

t_start=$(date +%s)
step "host tools (debootstrap, git)" ensure_host_tools
hint="Debian's archive unreachable? (mirror $mirror, set RETRYLAB_DEBIAN_MIRROR)"
step "pristine Debian 12 minbase root" make_pristine
step "unpack the root" unpack_root
step "copy the checkout to /src/retrylab in the root" copy_checkout
step "mount /proc, /sys, /dev and the caches" mount_all
hint="a package packaging/install-deps.sh names does not exist or could not be installed on Debian 12"
step "bash packaging/install-deps.sh (in the fresh root)" in_root "bash packaging/install-deps.sh"
hint="a build dependency is missing from packaging/install-deps.sh (see CMake's message above)"
step "cmake --preset ci (configure, in the fresh root)" in_root "cmake --preset ci"
# The pristine tarball and the .deb cache are done with: another run need not wait for --full's builds (only
# the ccache install in .ci/run still uses apt there, one small package).
flock -u 9
if ((full)); then
    hint="README quick start: the demo command failed on a fresh machine"
    step "bash packaging/run-demo.sh --demo-autorun (in the fresh root)" run_demo
    hint="README quick start: the CI command failed on a fresh machine"
    step "bash .ci/run (in the fresh root)" in_root "bash .ci/run"
fi

say "passed in $(($(date +%s) - t_start)) s:"
printf '  %s\n' "${timings[@]}"
