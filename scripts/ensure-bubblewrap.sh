#!/usr/bin/env bash
# The sandbox every agent step and check runs in is bubblewrap (Debian's package `bubblewrap`): `npm install`,
# `npm start` and `npm test` install it when it is missing and we are root; otherwise they say the one
# command to run (and runs refuse their commands, naming GATEHOUSE_SANDBOX, until it is there).
set -euo pipefail
if [ "${GATEHOUSE_SANDBOX:-on}" = "off" ] || [ "$(uname -s)" != "Linux" ]; then exit 0; fi
if command -v bwrap >/dev/null 2>&1 || [ -x /usr/bin/bwrap ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "gatehouse: bubblewrap (the sandbox for agents and checks) is missing; installing Debian's bubblewrap"
  if DEBIAN_FRONTEND=noninteractive apt-get install -y -q bubblewrap >/dev/null 2>&1 ||
    { apt-get update -q >/dev/null \
      && DEBIAN_FRONTEND=noninteractive apt-get install -y -q bubblewrap >/dev/null; }; then
    exit 0
  fi
  echo "gatehouse: could not install bubblewrap with apt-get" >&2
fi
echo "gatehouse: agents and checks run in a bubblewrap sandbox, which is not installed. Install it with:" >&2
echo "  sudo apt-get install -y bubblewrap" >&2
echo "(or set GATEHOUSE_SANDBOX=off to run them unsandboxed: they can then reach Gatehouse's own data)" >&2
exit 0
