#!/usr/bin/env bash
# `npm test`: every suite — unit and integration (vitest, real SQLite and real processes), then
# end-to-end (Playwright in Debian's Chromium against the built server). The production build runs
# beside vitest (whose tests wait on real processes much of the time), so the e2e part starts at once.
# Exhaustive matrices (tagged @full: the dark-theme accessibility pass; the API fuzz at full size) are
# `npm run test:full`'s. Prints each part's time at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
bash scripts/ensure-chromium.sh
bash scripts/ensure-bubblewrap.sh
build_log=$(mktemp)
t0=$(date +%s)
build_done=$(mktemp)
(node scripts/start.mjs --build-only >"$build_log" 2>&1 && date +%s >"$build_done") &
build=$!
# The build's own result is reported even when vitest fails first.
finish_build() {
  if ! wait "$build"; then
    cat "$build_log" >&2
    echo "npm test: the production build failed (its output is above)" >&2
    return 1
  fi
  t_build=$(cat "$build_done")
}
if ! npx vitest run; then
  finish_build || true
  exit 1
fi
t1=$(date +%s)
finish_build
t2=$(date +%s)
FUZZ_COUNT="${FUZZ_COUNT:-500}" npx playwright test --grep-invert @full "$@"
t3=$(date +%s)
echo "npm test: vitest $((t1 - t0))s (the build beside it took $((t_build - t0))s, waited for" \
  "$((t2 - t1))s after), Playwright $((t3 - t2))s, in all $((t3 - t0))s" \
  "(load $(cut -d' ' -f1-3 /proc/loadavg))"
