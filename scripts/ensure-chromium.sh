#!/usr/bin/env bash
# End-to-end tests run in Debian's Chromium (Playwright cannot download browsers here).
# Installs it when missing and we are root; otherwise says the one command to run.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" = "0" ]; then
  echo "gatehouse: /usr/bin/chromium is missing; installing Debian's chromium (takes a few minutes)"
  apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null
  exit 0
fi
echo "gatehouse: the end-to-end tests need Debian's Chromium at /usr/bin/chromium. Install it with:" >&2
echo "  sudo apt-get install -y chromium" >&2
exit 1
