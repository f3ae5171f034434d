#!/usr/bin/env bash
# CI: build the Linux release with `make dist` and check it (called after the tests; 2–4 minutes).
#
#   bash packaging/ci_check.sh
#
# 1. installs the build tools (binutils for strip/objdump/readelf, desktop-file-utils, Xvfb) when missing;
# 2. `make dist`: .venv (the one `make test` made, or a new one) gets PyInstaller, then the one-folder app,
#    the tarball and the .deb are built into dist/;
# 3. installs the .deb's runtime Depends (so a wrong package name or a missing one fails here, not for a user);
# 4. packaging/release_check.py runs the frozen app: --version, --smoke (offscreen and xcb), keyring, an upgrade
#    from the first migration, one reminder sent end to end to the emulator, render, the .deb and the tarball.
# Prints PASS/FAIL lines and JSON figure lines; exits non-zero when anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."

VENV="${VENV:-.venv}"
PY="$VENV/bin/python"
export DEBIAN_FRONTEND=noninteractive
started=$(date +%s)
failures=0

pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
elapsed() { echo $(($(date +%s) - $1)); }

apt_updated=0
apt_update() {  # another apt on the machine holds the package lists' lock for a while: wait for it
    local try
    for try in 1 2 3 4 5 6 7 8 9 10 11 12; do
        apt-get update -qq && return 0
        sleep 10
    done
    return 1
}
apt_install() {  # apt_install PACKAGE... : install those not installed yet
    local missing=() p
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ "${#missing[@]}" -eq 0 ] && return 0
    if [ "$apt_updated" -eq 0 ]; then
        apt_update || return 1
        apt_updated=1
    fi
    apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# ---- 1. build tools ------------------------------------------------------------------------------------------
if command -v apt-get >/dev/null 2>&1; then
    t=$(date +%s)
    if apt_install binutils desktop-file-utils xvfb xauth; then
        pass "tools: binutils, desktop-file-utils, xvfb present ($(elapsed "$t") s)"
    else
        fail "tools: apt-get could not install the build tools"
    fi
else
    echo "SKIP tools: no apt-get; binutils, dpkg-deb and desktop-file-validate must already be installed"
fi

# ---- 2. build ------------------------------------------------------------------------------------------------
t=$(date +%s)
rm -rf dist/shiftcast dist/shiftcast-*.tar.gz dist/shiftcast_*.deb build/pyinstaller build/deb
mkdir -p build
if make dist VENV="$VENV" > build/dist.log 2>&1; then
    build_s=$(elapsed "$t")
    pass "build: make dist ($build_s s)"
    echo "{\"metric\": \"build\", \"make_dist_s\": $build_s}"
    grep -E "WARNING: Library not found|ERROR" build/dist.log | grep -v "libqgtk3" | sed 's/^/  note: /' || true
else
    fail "build: make dist exited non-zero; the end of its log:"
    tail -40 build/dist.log
    echo "ci_check: $failures failure(s) in $(elapsed "$started") s"
    exit 1
fi

# ---- 3. runtime dependencies, as a user's apt would install them --------------------------------------------
deb=$(ls dist/shiftcast_*.deb 2>/dev/null | head -1)
if command -v apt-get >/dev/null 2>&1 && [ -n "$deb" ]; then
    t=$(date +%s)
    depends=$(dpkg-deb --field "$deb" Depends)
    if [ "$apt_updated" -eq 0 ]; then apt_update && apt_updated=1; fi
    if apt-get -o DPkg::Lock::Timeout=600 satisfy -y -qq --no-install-recommends "$depends" >/dev/null; then
        pass "depends: every package in the .deb's Depends is installable and installed ($(elapsed "$t") s)"
    else
        fail "depends: apt-get could not satisfy the .deb's Depends: $depends"
    fi
fi

# ---- 4. the frozen app ---------------------------------------------------------------------------------------
if "$PY" packaging/release_check.py --dist dist; then
    :
else
    failures=$((failures + 1))
fi

total=$(elapsed "$started")
echo "{\"metric\": \"ci_check\", \"total_s\": $total}"
if [ "$failures" -gt 0 ]; then
    echo "FAIL ci_check: $failures step(s) failed ($total s)"
    exit 1
fi
echo "PASS ci_check: release build checked ($total s)"
