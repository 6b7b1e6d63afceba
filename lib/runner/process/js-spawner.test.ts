// The JavaScript spawner (what a machine without a C compiler uses) cannot widen the output pipe, so its
// output is read as a socket rather than polled; the log must come out the same.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_MASKING } from "../output/masker";
import { fifoPoolFor } from "./fifo-pool";
import { runCommand, type CommandSpec } from "./run-command";
import { launch, nativeSpawnerPath } from "./spawner";
import { MIN_POLLED_PIPE_BYTES } from "./pipe-poller";

let dir: string;
let n = 0;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-jsspawner-"));
});
afterAll(() => {
  delete process.env.GATEHOUSE_JS_SPAWNER;
  fs.rmSync(dir, { recursive: true, force: true });
});

const spec = (command: string, extra: Partial<CommandSpec> = {}): CommandSpec => ({
  command,
  cwd: dir,
  env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir, LANG: "C.UTF-8" },
  timeoutMs: 30_000,
  logPath: path.join(dir, `log-${++n}`),
  capBytes: 32 * 1024 * 1024,
  masker: NO_MASKING,
  pipeDir: path.join(dir, "pipes"),
  ...extra,
});

async function pipeBytesOfLaunch(): Promise<number> {
  const pipe = await fifoPoolFor(path.join(dir, "pipes")).takeReadEnd();
  const launched = await launch({
    file: "true",
    args: [],
    cwd: dir,
    env: { PATH: process.env.PATH ?? "" },
    stdinPath: null,
    outPath: pipe.path,
  });
  fs.rmSync(pipe.path);
  fs.closeSync(pipe.readFd);
  if ("error" in launched) throw new Error(launched.error);
  await launched.exited;
  return launched.pipeBytes;
}

describe("commands started by the JavaScript spawner", () => {
  it("the native spawner reports a pipe wide enough to poll; the JavaScript one reports none", async () => {
    delete process.env.GATEHOUSE_JS_SPAWNER;
    if (fs.existsSync(nativeSpawnerPath()))
      expect(await pipeBytesOfLaunch()).toBeGreaterThanOrEqual(MIN_POLLED_PIPE_BYTES);
    process.env.GATEHOUSE_JS_SPAWNER = "1";
    expect(await pipeBytesOfLaunch()).toBe(0);
  });

  it("a flood over the cap keeps its head, marker and tail", async () => {
    process.env.GATEHOUSE_JS_SPAWNER = "1";
    const cap = 64 * 1024;
    const s = spec("echo FIRST; head -c 3000000 < <(yes 'js flood'); echo; echo LAST", { capBytes: cap });
    const out = await runCommand(s);
    expect(out.exitCode).toBe(0);
    expect(out.totalBytes).toBe("FIRST\n".length + 3_000_000 + 1 + "LAST\n".length);
    expect(out.storedBytes).toBe(cap);
    const text = fs.readFileSync(s.logPath, "utf8");
    expect(text.startsWith("FIRST\njs flood\n")).toBe(true);
    expect(text.endsWith("\nLAST\n")).toBe(true);
    expect(text).toContain("[gatehouse] log cut: ");
    expect(out.message).toBe("LAST");
  });

  it("stdout and stderr share the pipe in order, /dev/stdout works, and the exit code comes through", async () => {
    process.env.GATEHOUSE_JS_SPAWNER = "1";
    const s = spec("echo out1; echo err1 >&2; echo via-dev-stdout > /dev/stdout; echo out2; exit 4");
    const out = await runCommand(s);
    expect(out.exitCode).toBe(4);
    expect(fs.readFileSync(s.logPath, "utf8")).toBe("out1\nerr1\nvia-dev-stdout\nout2\n");
  });
});
