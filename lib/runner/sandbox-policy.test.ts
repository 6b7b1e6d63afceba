// The Work's sandbox settings, passed to the sandbox directly as a policy (the settings themselves are
// stored and frozen by the Work settings; sandboxPolicyOf reads them): network on or off, and the extra
// paths of sandboxMounts, read-only or read-write. Real processes, as the sandbox's own user.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeAsRoot } from "../testing/needs-root";
import { processesCarrying } from "../testing/processes";
import { NO_MASKING } from "./output/masker";
import { runCommand } from "./process/run-command";
import { giveTo, resolveRunUser, type RunAsUser } from "./run-as";
import { sandboxFor } from "./sandbox/command-sandbox";
import { resolveSandboxMode } from "./sandbox/mode";
import type { SandboxPolicy } from "./sandbox/policy";

let root: string;
let dataDir: string;
let checkout: string;
let user: RunAsUser;

async function runWith(
  policy: SandboxPolicy,
  command: string,
  extra: { timeoutMs?: number; killGraceMs?: number } = {},
) {
  const mode = resolveSandboxMode({}, user);
  const env = { PATH: "/usr/bin:/bin", HOME: path.join(dataDir, "home"), LANG: "C.UTF-8" };
  const sandbox = sandboxFor({
    mode,
    policy,
    dataDir,
    installDir: process.cwd(),
    taskCheckout: checkout,
    cwd: checkout,
    env,
    runAs: user,
  });
  return runCommand({
    command,
    cwd: checkout,
    env,
    timeoutMs: extra.timeoutMs ?? 20_000,
    killGraceMs: extra.killGraceMs,
    logPath: path.join(root, "logs", `${Date.now()}-${Math.random()}.log`),
    capBytes: 1 << 20,
    masker: NO_MASKING,
    pipeDir: path.join(root, "pipes"),
    runAs: user,
    sandbox,
  });
}

// Whether PostgreSQL listens here (it does on the project's machines): the network tests need a service.
function postgresListens(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(5432, "127.0.0.1");
    socket.on("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
  });
}

const TRY_POSTGRES = "exec 3<>/dev/tcp/127.0.0.1/5432 && echo reached";

describeAsRoot("the sandbox's policy: network and sandboxMounts", () => {
  beforeAll(() => {
    user = resolveRunUser({})!;
    root = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-sbx-policy-"));
    fs.chmodSync(root, 0o755);
    dataDir = path.join(root, "data");
    checkout = path.join(dataDir, "worktrees", "t1");
    fs.mkdirSync(checkout, { recursive: true });
    fs.mkdirSync(path.join(dataDir, "home"));
    fs.mkdirSync(path.join(root, "logs"));
    fs.chmodSync(dataDir, 0o711);
    execFileSync("git", ["init", "-q", checkout]);
    execFileSync("chown", [
      "-R",
      `${user.uid}:${user.gid}`,
      path.join(dataDir, "worktrees"),
      path.join(dataDir, "home"),
    ]);
    for (const dir of ["tools", "cache"]) {
      fs.mkdirSync(path.join(root, dir));
      fs.writeFileSync(path.join(root, dir, "README"), `${dir}\n`);
    }
    giveTo(path.join(root, "cache"), user);
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it("network on (the default): a check reaches PostgreSQL on 127.0.0.1:5432; off: it cannot", async () => {
    if (!(await postgresListens()))
      throw new Error("PostgreSQL does not listen on 127.0.0.1:5432 (pg_ctlcluster 15 main start)");
    const on = await runWith({ network: "on", mounts: [] }, TRY_POSTGRES);
    expect([on.exitCode, on.message]).toEqual([0, "reached"]);
    const off = await runWith({ network: "off", mounts: [] }, `${TRY_POSTGRES} || { echo unreachable; exit 1; }`);
    expect([off.exitCode, off.message]).toEqual([1, "unreachable"]);
    // Nor through PostgreSQL's Unix socket: /run is the sandbox's own without a network.
    const socket = await runWith({ network: "off", mounts: [] }, "ls /run/postgresql 2>/dev/null | grep -c . || true");
    expect(socket.message).toBe("0");
  });

  it("sandboxMounts: a read-only path is seen and not written, a read-write one is written on the host", async () => {
    const tools = path.join(root, "tools");
    const cache = path.join(root, "cache");
    const without = await runWith({ network: "on", mounts: [] }, `cat ${tools}/README 2>/dev/null || echo hidden`);
    expect(without.message).toBe("hidden");
    const outcome = await runWith(
      {
        network: "on",
        mounts: [
          { path: tools, mode: "ro" },
          { path: cache, mode: "rw" },
        ],
      },
      `cat ${tools}/README; (echo x > ${tools}/planted) 2>/dev/null && echo wrote-ro; echo kept > ` +
        `${cache}/entry; echo done`,
    );
    expect(outcome.tail).toContain("tools\n");
    expect(outcome.tail).not.toContain("wrote-ro");
    expect(outcome.message).toBe("done");
    expect(fs.existsSync(path.join(tools, "planted"))).toBe(false);
    expect(fs.readFileSync(path.join(cache, "entry"), "utf8")).toBe("kept\n");
  });

  it("a mount that leads through a link into the data dir is refused where the command starts, showing \
nothing", async () => {
    // Made after the Work was saved, say: bwrap would follow the link and bind the data dir itself beside the
    // mask that hides it at its own path.
    fs.writeFileSync(path.join(dataDir, "home", "platform-only"), "the data dir's own\n");
    const link = path.join(root, "to-data");
    fs.symlinkSync(dataDir, link);
    const outcome = await runWith(
      { network: "on", mounts: [{ path: link, mode: "ro" }] },
      `cat ${link}/home/platform-only || echo hidden`,
    );
    expect(outcome.spawnError).toContain(
      `the Work's sandbox mount ${link} must not be inside Gatehouse's data dir (${fs.realpathSync(dataDir)}): ` +
        `it leads through a link to ${fs.realpathSync(dataDir)}`,
    );
    expect(outcome.tail).not.toContain("the data dir's own");
  });

  it("a mount through a folder the sandbox's user can write is refused: it could swap the path for a link to \
the data dir between the check and the bind", async () => {
    const cache = path.join(root, "cache");
    const safe = path.join(root, "tools");
    const link = path.join(cache, "tools-link");
    fs.symlinkSync(safe, link);
    const inside = path.join(cache, "sub");
    fs.mkdirSync(inside, { recursive: true });
    for (const where of [link, inside]) {
      const outcome = await runWith({ network: "on", mounts: [{ path: where, mode: "ro" }] }, "echo ran");
      expect(outcome.spawnError, where).toBe(
        `the Work's sandbox mount ${where} passes through ${cache}, which the sandbox's user can write ` +
          "(it could put a link there before the mount is bound): nothing was run",
      );
      expect(outcome.tail).not.toContain("ran");
    }
    // The folder the user writes is itself fine to bind (its own entry is in a folder only root writes).
    const own = await runWith({ network: "on", mounts: [{ path: cache, mode: "rw" }] }, "echo ran");
    expect(own.message).toBe("ran");
  });

  it("a mount of the data dir under another name (a bind mount of it elsewhere) is refused by the folder \
itself", async () => {
    fs.writeFileSync(path.join(dataDir, "home", "platform-only"), "the data dir's own\n");
    const alias = path.join(root, "alias");
    fs.mkdirSync(alias);
    execFileSync("mount", ["--bind", dataDir, alias]);
    try {
      const outcome = await runWith(
        { network: "on", mounts: [{ path: alias, mode: "ro" }] },
        `cat ${alias}/home/platform-only || echo hidden`,
      );
      expect(outcome.spawnError).toContain(
        `the Work's sandbox mount ${alias} must not be inside Gatehouse's data dir (${fs.realpathSync(dataDir)}): ` +
          "it is that folder under another name",
      );
      expect(outcome.tail).not.toContain("the data dir's own");
    } finally {
      execFileSync("umount", [alias]);
    }
  });

  it("a timeout still gives the command inside its SIGTERM and grace; one that ignores it is killed \
after", async () => {
    const graceful = await runWith(
      { network: "on", mounts: [] },
      "trap 'echo got TERM; sleep 0.2; echo cleaned up; exit 3' TERM; echo started; sleep 100 & wait",
      // Long enough for bwrap and bash to start and set the trap on a loaded machine (500 ms was not: seen
      // once, nothing printed at all when the SIGTERM came).
      { timeoutMs: 3_000, killGraceMs: 5_000 },
    );
    expect(graceful.isTimedOut).toBe(true);
    expect(graceful.tail).toContain("got TERM\ncleaned up");
    expect(graceful.exitCode).toBe(3);
    const started = performance.now();
    const stubborn = await runWith(
      { network: "on", mounts: [] },
      `trap '' TERM; exec -a stubborn-${process.pid} sleep 100`,
      { timeoutMs: 300, killGraceMs: 700 },
    );
    expect(stubborn.isTimedOut).toBe(true);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(processesCarrying(`stubborn-${process.pid}`)).toEqual([]);
  });

  it("where the sandbox cannot work, the command is refused with the reason, naming GATEHOUSE_SANDBOX", async () => {
    const outcome = await runCommand({
      command: "echo ran > ran.txt",
      cwd: checkout,
      env: { PATH: "/usr/bin:/bin" },
      timeoutMs: 5_000,
      logPath: path.join(root, "logs", "refused.log"),
      capBytes: 1 << 20,
      masker: NO_MASKING,
      pipeDir: path.join(root, "pipes"),
      sandbox: sandboxFor({
        mode: resolveSandboxMode({}, user, "darwin"),
        policy: { network: "on", mounts: [] },
        dataDir,
        installDir: process.cwd(),
        taskCheckout: checkout,
        cwd: checkout,
        env: {},
      }),
    });
    expect(outcome.spawnError).toMatch(/needs Linux.*GATEHOUSE_SANDBOX=off/);
    expect(fs.existsSync(path.join(checkout, "ran.txt"))).toBe(false);
  });
});
