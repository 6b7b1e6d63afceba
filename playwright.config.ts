import { defineConfig } from "@playwright/test";
import { ADMIN, ADMIN_STATE, E2E_BOOTSTRAP_TOKEN } from "./e2e/support/accounts";

// End-to-end tests in Debian's Chromium against the real built server on a fresh data dir.
const port = Number(process.env.E2E_PORT ?? 3210);
export const e2eDataDir = `${__dirname}/.e2e-data`;

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 20_000 },
  reporter: "list",
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
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
    { name: "chromium", dependencies: ["setup"], use: { storageState: ADMIN_STATE } },
  ],
  webServer: {
    command: `rm -rf "${e2eDataDir}" && node scripts/start.mjs`,
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PORT: String(port),
      GATEHOUSE_DATA_DIR: e2eDataDir,
      GATEHOUSE_DEMO: "1",
      NEXT_TELEMETRY_DISABLED: "1",
      GATEHOUSE_CONCURRENCY: "2",
      GATEHOUSE_ADMIN_EMAIL: ADMIN.email,
      GATEHOUSE_ADMIN_PASSWORD: ADMIN.password,
      GATEHOUSE_BOOTSTRAP_TOKEN: E2E_BOOTSTRAP_TOKEN,
      // As root (CI), checks and agents run as `nobody`, the way a careful operator runs Gatehouse.
      ...(process.getuid?.() === 0 ? { GATEHOUSE_RUN_AS: "nobody" } : {}),
    },
  },
});
