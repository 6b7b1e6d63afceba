#!/usr/bin/env bash
# `npm run test:full`: `npm test`, then what it leaves out for time — the end-to-end tests tagged @full
# (the dark-theme accessibility pass) and the API fuzz again at 3,000 requests. `--full-only` runs just those
# (on a server already built), as CI does when they fit in its time.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
if [ "${1:-}" != "--full-only" ]; then bash scripts/test.sh; fi
t0=$(date +%s)
bash scripts/ensure-chromium.sh
node scripts/start.mjs --build-only
FUZZ_COUNT="${FUZZ_COUNT:-3000}" npx playwright test --grep "@full|@fuzz"
echo "test:full: the @full end-to-end tests took $(( $(date +%s) - t0 ))s (load $(cut -d' ' -f1-3 /proc/loadavg))"
