#!/usr/bin/env bash
# `npm test`: every suite — unit and integration (vitest, real SQLite and real processes), then
# end-to-end (Playwright in Debian's Chromium against the built server). Prints each part's time at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
bash scripts/ensure-chromium.sh
bash scripts/ensure-bubblewrap.sh
t0=$(date +%s)
npx vitest run
t1=$(date +%s)
bash scripts/test-e2e.sh "$@"
t2=$(date +%s)
echo "npm test: vitest $((t1 - t0))s, e2e (build + Playwright) $((t2 - t1))s," \
  "in all $((t2 - t0))s (load $(cut -d' ' -f1-3 /proc/loadavg))"
