// The configuration as parsed from an environment: defaults, numbers that are not, and config() following
// a variable a test changes.
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { config, configFrom } from "./config";

describe("configFrom", () => {
  it("the defaults of an empty environment", () => {
    expect(configFrom({})).toMatchObject({
      port: 3000,
      dataDir: path.resolve("./data"),
      databaseUrl: null,
      logCapBytes: 32 * 1024 * 1024,
      isDemo: true,
      bootstrapToken: null,
      secretKey: null,
      isProxyTrusted: false,
      publicUrl: "http://localhost:3000",
      runAs: null,
      hasLocalWorker: true,
      workerLostMs: 30_000,
      workerWarmWorks: 8,
      hostPath: null,
    });
    expect(configFrom({}).concurrency).toBeGreaterThan(0);
  });

  it("reads each variable; a number that is not positive keeps the default", () => {
    const c = configFrom({
      GATEHOUSE_CONCURRENCY: "3",
      GATEHOUSE_LOG_CAP_MB: "-1",
      GATEHOUSE_DEMO: "0",
      GATEHOUSE_TRUST_PROXY: "1",
      GATEHOUSE_RUN_AS: " nobody ",
      GATEHOUSE_WORKERS: "0",
      GATEHOUSE_WORKER_NAME: " w1 ",
      GATEHOUSE_WORKER_LOST_SEC: "ten",
      GATEHOUSE_BOOTSTRAP_TOKEN: "",
    });
    expect(c).toMatchObject({
      concurrency: 3,
      logCapBytes: 32 * 1024 * 1024,
      isDemo: false,
      isProxyTrusted: true,
      runAs: "nobody",
      hasLocalWorker: false,
      workerName: "w1",
      workerLostMs: 30_000,
      bootstrapToken: null,
    });
  });
});

describe("config", () => {
  const before = process.env.GATEHOUSE_WORKER_LOST_SEC;
  afterEach(() => {
    if (before === undefined) delete process.env.GATEHOUSE_WORKER_LOST_SEC;
    else process.env.GATEHOUSE_WORKER_LOST_SEC = before;
  });

  it("GATEHOUSE_WORKER_WARM is a count: 0 turns the warm-up off, anything but a whole number keeps the default", () => {
    const warm = (value: string) => configFrom({ GATEHOUSE_WORKER_WARM: value }).workerWarmWorks;
    expect(warm("0")).toBe(0);
    expect(warm("3")).toBe(3);
    for (const bad of ["", " ", "-1", "2.5", "many"]) expect(warm(bad)).toBe(8);
  });

  it("is parsed once, and again when a variable it reads changes", () => {
    process.env.GATEHOUSE_WORKER_LOST_SEC = "12";
    const first = config();
    expect(config()).toBe(first);
    expect(first.workerLostMs).toBe(12_000);
    process.env.GATEHOUSE_WORKER_LOST_SEC = "13";
    expect(config().workerLostMs).toBe(13_000);
  });
});
