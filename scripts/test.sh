#!/usr/bin/env bash
# `npm test`: every suite — unit and integration (vitest, real SQLite and real processes), and end-to-end
# (Playwright in Debian's Chromium against the built server, one server per worker: e2e/support/lanes.ts).
# The production build starts beside vitest, and Playwright as soon as the build is done, still beside
# vitest: most vitest tests wait on real processes, so the three share the cores without waiting for each
# other. Playwright's output is shown once vitest is done. Exhaustive matrices (tagged @full: the dark-theme
# accessibility passes; the API fuzz at full size) are `npm run test:full`'s. Prints each part's time at
# the end.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
bash scripts/ensure-chromium.sh
bash scripts/ensure-bubblewrap.sh
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
touch "$logs/e2e"
t0=$(date +%s)
(
  if ! node scripts/start.mjs --build-only >"$logs/build" 2>&1; then
    echo 1 >"$logs/build.rc"
    exit 0
  fi
  date +%s >"$logs/build.done"
  rc=0
  FUZZ_COUNT="${FUZZ_COUNT:-500}" npx playwright test --grep-invert @full "$@" >"$logs/e2e" 2>&1 || rc=$?
  echo "$rc" >"$logs/e2e.rc"
  date +%s >"$logs/e2e.done"
) &
e2e=$!
vitest_rc=0
# Beside the build and Playwright, vitest runs as many files at a time as there are cores, not one more
# (its default here, for when it runs alone): on 2 cores the three oversubscribed each other — `npm test`
# took 442 s and 830 CPU-s with three vitest files at a time, 369 s and 711 CPU-s with two.
npx vitest run --maxWorkers="$(nproc)" || vitest_rc=$?
t_vitest=$(date +%s)
echo "npm test: vitest is done; the end-to-end suite's output (so far, then as it comes):"
# Playwright's output from the start, then as it is written, until it ends.
tail -n +1 -f "$logs/e2e" --pid "$e2e" 2>/dev/null &
tailer=$!
wait "$e2e" || true
wait "$tailer" 2>/dev/null || true
if [ -e "$logs/build.rc" ]; then
  cat "$logs/build" >&2
  echo "npm test: the production build failed (its output is above)" >&2
  exit 1
fi
t_build=$(cat "$logs/build.done")
t_e2e=$(cat "$logs/e2e.done")
echo "npm test: vitest $((t_vitest - t0))s; beside it the build $((t_build - t0))s, then Playwright" \
  "$((t_e2e - t_build))s (ending $((t_e2e > t_vitest ? t_e2e - t_vitest : 0))s after vitest); in all" \
  "$(($(date +%s) - t0))s (load $(cut -d' ' -f1-3 /proc/loadavg))"
if [ "$vitest_rc" != 0 ]; then echo "npm test: vitest failed (its output is above)" >&2; fi
if [ "$(cat "$logs/e2e.rc")" != 0 ]; then echo "npm test: the end-to-end suite failed (above)" >&2; fi
[ "$vitest_rc" = 0 ] && [ "$(cat "$logs/e2e.rc")" = 0 ]
