#!/bin/sh
# Runs the upstream WPT directories listed in upstream-dirs.txt from a
# web-platform-tests tree (WPT_ROOT, default /work/wpt-upstream) through
# the libtest-mimic harness, and reports files and subtests passed.
#
# The tree is the upstream checkout's files for those directories (extract
# them from a web-platform-tests checkout or mirror, e.g.
#   git --git-dir=<mirror> archive HEAD html/webappapis/scripting/processing-model-2 | tar -x -C "$WPT_ROOT"
# ). Upstream code is never committed here.
#
# Usage: tests/wpt/upstream.sh [libtest filter...]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=${WPT_ROOT:-/work/wpt-upstream}
include=$(grep -v '^#' "$here/upstream-dirs.txt" | grep -v '^$' | paste -sd, -)
cd "$here/../.."
WPT_ROOT="$root" WPT_INCLUDE="$include" ./mach cargo test --release -p jsprof-wpt --test wpt -- "$@"
