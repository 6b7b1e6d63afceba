import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

// Unit tests (lib/gates) and integration tests (lib/db, lib/runner, API routes) against real SQLite and
// real processes. Playwright specs in e2e/ run separately.
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    // *.pg-test.ts need PostgreSQL (workers, the queue): only the PostgreSQL suite (npm run test:pg) runs them.
    include: [
      "lib/**/*.test.ts",
      "app/**/*.test.ts",
      ...(process.env.TEST_DATABASE_URL ? ["lib/**/*.pg-test.ts"] : []),
    ],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // The files of one worker share their modules: the app's module graph is imported once per worker, not
    // once per file (on 2 cores: vitest 150 s instead of ~490 s; the import was most of it). What a file leaves
    // process-wide (the environment, the runner's runtime) is put back before the next: per-file.setup.ts.
    isolate: false,
    setupFiles: ["lib/testing/per-file.setup.ts", "lib/testing/cheap-passwords.setup.ts"],
    // Vitest's default is one file fewer than the cores (one at a time on two), but most tests wait on
    // real processes (git, the spawner, bwrap, servers): one more file than cores keeps them busy. Seen on
    // 2 cores at load ~19: 33.5 min with one at a time, 13.8 min with three, every test passing. (`npm test`,
    // where the build and Playwright share the cores, runs as many files as cores: scripts/test.sh.)
    maxWorkers: os.availableParallelism() + 1,
    globalSetup: ["lib/testing/build-native.global.ts", "lib/testing/scratch.global.ts"],
    // Tests of other behaviour write counters and pids to scratch folders outside the checkout, which the
    // sandbox (rightly) forbids: they run unsandboxed. The sandbox's own tests (lib/runner/sandbox*.test.ts,
    // demo-proof) and the end-to-end suite run with it on, as a default install does.
    env: { GATEHOUSE_SANDBOX: "off" },
  },
});
