// One sandbox for an attempt's checks (lib/runner/sandbox/attempt-sandbox.ts): the checks share it, each
// with a /tmp of its own, and nothing a check does to the spawner it shares the sandbox with turns into a
// pass — not tracing it, not writing its answers, not seeing its pipes, not killing or stopping it.
import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { describeAsRoot } from "../testing/needs-root";
import { sandboxedHarness } from "../testing/sandboxed-harness";
import { giveTo } from "./run-as";
import { runCommand } from "./process/run-command";
import { AttemptSandboxes } from "./sandbox/attempt-sandbox";
import { sandboxPlanOf } from "./sandbox/command-sandbox";
import { DEFAULT_SANDBOX_POLICY } from "./sandbox/policy";
import { check, dispatchAndSettle, makeScenario, type Harness } from "../testing/runner-harness";

let h: Harness;

const scenario = (work: Record<string, unknown>, files: Record<string, string> = {}) =>
  makeScenario(h, work, { files });

// The processes of the sandbox that are not the check's own: its spawner and their shims (their command
// line names `--inside`), and bwrap's init.
const PLATFORM_PIDS = `platform_pids() {
  for p in /proc/[0-9]*; do
    tr '\\0' ' ' < "$p/cmdline" 2>/dev/null | grep -qE -- '--inside|^bwrap ' && basename "$p"
  done
}`;

describeAsRoot("the checks of an attempt share one sandbox", () => {
  sandboxedHarness((made) => {
    h = made;
  });

  it("they run in one PID namespace, not the server's, and each has a /tmp and /var/tmp of its own", async () => {
    const s = await scenario({
      checkDefaults: [
        check("first", "readlink /proc/self/ns/pid; echo planted > /tmp/left; echo planted > /var/tmp/left"),
        check("second", "readlink /proc/self/ns/pid; ls -A /tmp /var/tmp; ! cat /tmp/left /var/tmp/left 2>/dev/null"),
      ],
    });
    const detail = await dispatchAndSettle(h, s.task.id);
    const [first, second] = detail.attempts[0].results;
    expect([first.verdict, second.verdict]).toEqual(["passed", "passed"]);
    const namespaceOf = (tail: string | null) => /pid:\[\d+\]/.exec(tail ?? "")?.[0];
    expect(namespaceOf(first.logTail)).toBeDefined();
    expect(namespaceOf(second.logTail)).toBe(namespaceOf(first.logTail));
    expect(namespaceOf(second.logTail)).not.toBe(fs.readlinkSync("/proc/self/ns/pid"));
    expect(second.logTail).not.toContain("planted");
  });

  it("a check cannot trace the spawner, open its answers or see its pipes", async () => {
    const attack = `${PLATFORM_PIDS}
leak() { echo "LEAK: $1"; }
pids=$(platform_pids)
[ -n "$pids" ] || leak "found no spawner to attack (the test would prove nothing)"
for p in $pids; do
  cat "/proc/$p/environ" >/dev/null 2>&1 && leak "read $p's environment"
  for fd in 0 1 2 3 4 5; do
    ( echo "X 1 0 0" > "/proc/$p/fd/$fd" ) 2>/dev/null && leak "write $p's descriptor $fd"
    ( cat < "/proc/$p/fd/$fd" >/dev/null ) 2>/dev/null & sleep 0.01; kill $! 2>/dev/null && wait $! 2>/dev/null
  done
  readlink "/proc/$p/cwd" >/dev/null 2>&1 && leak "follow $p's working directory"
  dir=$(tr '\\0' '\\n' < "/proc/$p/cmdline" | grep -A1 -x -- --inside | tail -1)
  [ -n "$dir" ] && ls -A "$dir" 2>/dev/null | grep -q . && leak "list the pipes in $dir"
done
echo "tried $(echo $pids | wc -w) processes"`;
    const s = await scenario(
      { checkDefaults: [check("attack", "bash attack.sh"), check("after", "echo still-here")] },
      { "attack.sh": attack },
    );
    const detail = await dispatchAndSettle(h, s.task.id);
    const [attacked, after] = detail.attempts[0].results;
    expect(attacked.logTail).toMatch(/tried [1-9]\d* processes/);
    expect(attacked.logTail).not.toContain("LEAK");
    expect([attacked.verdict, after.verdict]).toEqual(["passed", "passed"]);
    expect(after.logTail).toContain("still-here");
  });

  it("a check that kills the spawner is an error, and the checks after it run in a new sandbox", async () => {
    const s = await scenario({
      checkDefaults: [
        // The sandbox's init's start time (clock ticks since boot): a namespace's inode number is reused
        // once it is gone, a start time is not.
        check("before", "echo started $(cut -d' ' -f22 /proc/1/stat)"),
        check("killer", `${PLATFORM_PIDS}\nkill -9 $(platform_pids); sleep 5; exit 0`),
        check("after", "echo started $(cut -d' ' -f22 /proc/1/stat)"),
      ],
    });
    const detail = await dispatchAndSettle(h, s.task.id);
    const [before, killer, after] = detail.attempts[0].results;
    expect(killer.verdict).not.toBe("passed");
    expect(killer.exitCode).toBeNull();
    expect([before.verdict, after.verdict]).toEqual(["passed", "passed"]);
    expect(before.logTail).toMatch(/^started \d+\n$/);
    expect(after.logTail).toMatch(/^started \d+\n$/);
    expect(after.logTail).not.toBe(before.logTail);
    expect(detail.run.gate).toBe("red");
  });

  it("a check that stops its spawner times out instead of holding the run, and the next check runs", async () => {
    const s = await scenario({
      checkDefaults: [
        check("stopper", `${PLATFORM_PIDS}\nkill -STOP $(platform_pids); sleep 300`, { timeoutSec: 1 }),
        check("after", "echo ran"),
      ],
    });
    const detail = await dispatchAndSettle(h, s.task.id);
    const [stopper, after] = detail.attempts[0].results;
    expect(stopper.verdict).toBe("timeout");
    expect(after.verdict).toBe("passed");
    expect(after.logTail).toContain("ran");
  });

  it("two commands at once never share a sandbox; a sandbox is used again once its command has ended", async () => {
    const mode = h.deps.sandbox;
    if (mode.kind !== "bwrap") throw new Error("the sandbox is on in this suite");
    const checkout = path.join(h.dataDir, "worktrees", "side-by-side");
    fs.mkdirSync(path.join(checkout, ".git"), { recursive: true });
    giveTo(checkout, h.deps.runAs);
    const env = { PATH: "/usr/bin:/bin", HOME: checkout };
    const plan = sandboxPlanOf({
      policy: DEFAULT_SANDBOX_POLICY,
      dataDir: h.dataDir,
      installDir: process.cwd(),
      taskCheckout: checkout,
      cwd: checkout,
      env,
    });
    if ("error" in plan) throw new Error(plan.error);
    const sandboxes = new AttemptSandboxes(mode.bwrap, {
      dataDir: h.dataDir,
      runId: "side",
      n: 1,
      runAs: h.deps.runAs,
    });
    const namespaceIn = async (held: Awaited<ReturnType<AttemptSandboxes["insideFor"]>>, name: string) => {
      if ("error" in held) throw new Error(held.error);
      const logPath = path.join(h.dataDir, `${name}.log`);
      const outcome = await runCommand({
        command: "readlink /proc/self/ns/pid",
        cwd: checkout,
        env,
        timeoutMs: 10_000,
        logPath,
        capBytes: 1 << 20,
        masker: h.deps.makeMasker([]),
        pipeDir: path.join(h.dataDir, "tmp", "pipes"),
        inside: held.inside,
      });
      held.release();
      expect(outcome.exitCode).toBe(0);
      return fs.readFileSync(logPath, "utf8").trim();
    };
    try {
      const [a, b] = await Promise.all([sandboxes.insideFor(plan), sandboxes.insideFor(plan)]);
      const [first, second] = await Promise.all([namespaceIn(a, "a"), namespaceIn(b, "b")]);
      expect(first).toMatch(/^pid:\[\d+\]$/);
      expect(second).not.toBe(first);
      const again = await namespaceIn(await sandboxes.insideFor(plan), "c");
      expect([first, second]).toContain(again);
    } finally {
      await sandboxes.close();
    }
  });
});
