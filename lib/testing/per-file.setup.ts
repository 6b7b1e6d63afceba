// Run before every test file (vitest.config.mts `setupFiles`). The test files of one vitest worker share
// their modules (`isolate: false`: importing the app's module graph once per worker instead of once per file
// was most of the suite's time), so what a file leaves process-wide must not reach the next file: the
// environment is put back as the worker started, and the runner's process-wide runtime is dropped (the next
// file's harness, or the first service call, configures one from that environment), and route calls send no
// token until the file picks one.
import { forgetRuntime } from "../runner/runtime";
import { sendTokenByDefault } from "./call-route";

const holder = globalThis as unknown as { __gatehouseTestEnv?: Record<string, string | undefined> };

if (!holder.__gatehouseTestEnv) holder.__gatehouseTestEnv = { ...process.env };
else {
  const start = holder.__gatehouseTestEnv;
  for (const name of Object.keys(process.env)) if (!(name in start)) delete process.env[name];
  for (const [name, value] of Object.entries(start)) if (process.env[name] !== value) process.env[name] = value;
}
forgetRuntime();
sendTokenByDefault(undefined);
