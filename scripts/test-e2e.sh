#!/usr/bin/env bash
# End-to-end suite alone: builds when needed, starts the server on a fresh data dir, runs Playwright.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
bash scripts/ensure-chromium.sh
node scripts/start.mjs --build-only
npx playwright test "$@"
