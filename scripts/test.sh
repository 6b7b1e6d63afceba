#!/usr/bin/env bash
# `npm test`: every suite — unit and integration (vitest, real SQLite and real processes), then
# end-to-end (Playwright in Debian's Chromium against the built server).
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
bash scripts/ensure-chromium.sh
bash scripts/ensure-bubblewrap.sh
npx vitest run
bash scripts/test-e2e.sh "$@"
