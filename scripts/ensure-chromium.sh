#!/usr/bin/env bash
# End-to-end tests run in Debian's Chromium headless shell (package chromium-headless-shell: the same Blink
# and V8 as Debian's Chromium, without the desktop browser around them, as Playwright itself runs headless
# tests; Playwright cannot download browsers here). Installs it when missing and we are root; otherwise
# says the one command to run.
set -euo pipefail
# The browser asked for instead (E2E_CHROMIUM, e2e/support/browser.ts) is used as it is.
if [ -n "${E2E_CHROMIUM:-}" ] && [ -x "$E2E_CHROMIUM" ]; then exit 0; fi
if [ -x /usr/bin/chromium-headless-shell ]; then exit 0; fi
if [ "$(id -u)" = "0" ]; then
  echo "gatehouse: /usr/bin/chromium-headless-shell is missing; installing Debian's chromium-headless-shell"
  apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium-headless-shell >/dev/null
  exit 0
fi
echo "gatehouse: the end-to-end tests need Debian's Chromium headless shell. Install it with:" >&2
echo "  sudo apt-get install -y chromium-headless-shell" >&2
exit 1
