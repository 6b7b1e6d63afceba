import path from "node:path";
import { defineConfig } from "@playwright/test";
import { ADMIN, E2E_BOOTSTRAP_TOKEN } from "./e2e/support/accounts";
import { CHROMIUM_PATH } from "./e2e/support/browser";
import { adminState, E2E_LANES, LANES, laneDataDir, lanePort, laneUrl } from "./e2e/support/lanes";

// End-to-end tests in Debian's Chromium (its headless shell: e2e/support/browser.ts) against the real built
// server, one server (and fresh data dir) per worker: see e2e/support/lanes.ts. This file is read again in
// each worker, where baseURL and the admin's storage state are that worker's lane's.
export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: E2E_LANES,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 20_000 },
  reporter: "list",
  use: {
    baseURL: laneUrl(),
    // A trace records every action's DOM snapshot: a fifth of the suite's CPU on a 2-core machine, paid on
    // every passing test. On when asked (E2E_TRACE=1) to look into a failure; a failure's screenshot is kept.
    trace: process.env.E2E_TRACE ? "retain-on-failure" : "off",
    screenshot: "only-on-failure",
    // As someone who asked for less motion sees the pages (app/globals.css): a spinner or a pulsing "live"
    // dot animating in a waiting test repaints ~60 times a second, CPU the other tests on the machine need.
    reducedMotion: "reduce",
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [
        "--no-sandbox",
        "--headless",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  projects: [
    { name: "setup", testMatch: /auth\.setup\.ts/ },
    { name: "chromium", dependencies: ["setup"], use: { storageState: adminState() } },
  ],
  webServer: LANES.map((lane) => ({
    // The lanes' parent folder is made first and traversable: made by the server's recursive mkdir, it
    // would be 0700, and the sandbox's user could not reach the data dir inside it.
    command:
      `mkdir -p "${path.dirname(laneDataDir(lane))}" && chmod 755 "${path.dirname(laneDataDir(lane))}" && ` +
      `rm -rf "${laneDataDir(lane)}" && node scripts/start.mjs`,
    url: `${laneUrl(lane)}/api/health`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: "pipe" as const,
    stderr: "pipe" as const,
    env: {
      PORT: String(lanePort(lane)),
      GATEHOUSE_DATA_DIR: laneDataDir(lane),
      GATEHOUSE_DEMO: "1",
      NEXT_TELEMETRY_DISABLED: "1",
      GATEHOUSE_CONCURRENCY: "2",
      GATEHOUSE_ADMIN_EMAIL: ADMIN.email,
      GATEHOUSE_ADMIN_PASSWORD: ADMIN.password,
      GATEHOUSE_BOOTSTRAP_TOKEN: E2E_BOOTSTRAP_TOKEN,
      // As root (CI), checks and agents run as `nobody`, the way a careful operator runs Gatehouse.
      ...(process.getuid?.() === 0 ? { GATEHOUSE_RUN_AS: "nobody" } : {}),
    },
  })),
});
