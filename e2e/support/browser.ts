// The browser the end-to-end tests and the page benchmarks drive: Debian's Chromium headless shell
// (scripts/ensure-chromium.sh installs it), the engine without the desktop browser around it. On the 2-core
// machine the same 33 tests took 88 CPU-s in it against 107–111 in the full browser.
// E2E_CHROMIUM=/usr/bin/chromium runs them in the full browser instead.
export const CHROMIUM_PATH = process.env.E2E_CHROMIUM || "/usr/bin/chromium-headless-shell";
