#!/usr/bin/env bash
# Build skitter's wheel from a clean copy of this checkout and print the wheel's path.
#
#   hardware/pi/build-wheel.sh PYTHON OUTDIR
#
# PYTHON is the interpreter whose pip builds the wheel (install.sh passes the one of
# /opt/skitter/venv); the wheel lands in OUTDIR. The build runs in a temporary copy, so the
# checkout stays as cloned: no build/ and no *.egg-info beside the sources (a build in place,
# as root, left both behind, root-owned, and shipped stale files from build/lib into the next
# install).
set -euo pipefail

[ $# -eq 2 ] || { echo "usage: build-wheel.sh PYTHON OUTDIR" >&2; exit 2; }
PYTHON="$1"
OUT="$2"
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

copy="$(mktemp -d)"
trap 'rm -rf "$copy"' EXIT
# The sources only: none of what a build, a test run or a virtual environment leaves behind.
tar -C "$SRC" --exclude=./.git --exclude=./.venv --exclude=./build --exclude=./dist \
    --exclude='*.egg-info' --exclude=__pycache__ --exclude=.pytest_cache \
    --exclude=.ruff_cache --exclude=.hypothesis --exclude=./data --exclude=test-artifacts \
    -cf - . | tar -C "$copy" -xf -
mkdir -p "$OUT"
"$PYTHON" -m pip wheel --quiet --no-deps --wheel-dir "$OUT" "$copy" >&2
wheels=("$OUT"/skitter_scorekeeper-*.whl)
[ -f "${wheels[0]}" ] || { echo "build-wheel.sh: no wheel in $OUT" >&2; exit 1; }
printf '%s\n' "${wheels[@]}" | tail -n 1
