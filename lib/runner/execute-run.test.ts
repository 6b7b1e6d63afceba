// Runs end to end through the services, with real git worktrees and real processes: dispatch freezes,
// the attempt loop with and without an agent, the endings (accepted, partial, rejected, inconclusive),
// decisions, no-change attempts, failFast, the budget, policies, cancel and one-run-at-a-time.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "../auth/actor";
import { isAppError, type AppError } from "../errors";
import { cancelRun, decideRun, dispatchTask, startNextAttempt } from "../services/runs";
import { updateWork } from "../services/works";
import { listAuditEvents } from "../db/audit";
import { commitFiles, gitIn } from "../testing/git-repo";
import type { RunDetail } from "../services/run-detail";
import { presentRun } from "../api/present-run";
import { isStoppedRow } from "../gates/row-warning";
import { watchLaunches } from "./process/spawner";
import { agentLogPathOf, checkLogPathOf } from "./paths";
import { killQuietly, liveProcessesInGroup, waitFor, waitUntilGone } from "../testing/processes";
import {
  check,
  createHarness,
  dispatchAndSettle,
  makeScenario,
  settle,
  verdictsOf,
  type Harness,
} from "../testing/runner-harness";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.cleanup());

async function errorOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!isAppError(error)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

function lines(file: string): string[] {
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
}

// A file in the scratch dir (outside every checkout), unique per test.
let scratchCounter = 0;
function scratchFile(name: string): string {
  return path.join(h.scratch, `${++scratchCounter}-${name}`);
}

describe("dispatch", () => {
  it("freezes the checks and policy: editing the Work afterwards does not change what the run executes", async () => {
    const s = await makeScenario(h, { checkDefaults: [check("old", "echo the old check ran")] });
    const run = await dispatchTask(SYSTEM_ACTOR, s.task.id);
    expect(run.checks.map((c) => c.id)).toEqual(["old"]);
    await updateWork(SYSTEM_ACTOR, s.work.id, {
      version: s.work.version,
      checkDefaults: [check("new", "echo the new check; false")],
      checksPolicy: "warn",
      maxGateAttempts: 5,
    });

    const detail = await settle(h, run.id);
    expect(detail.run.checks.map((c) => c.id)).toEqual(["old"]);
    expect(detail.run.policy).toBe("required");
    expect(detail.run.maxAttempts).toBe(3);
    expect(detail.attempts).toHaveLength(1);
    expect(detail.attempts[0].results.map((r) => [r.checkId, r.verdict, r.message])).toEqual([
      ["old", "passed", "the old check ran"],
    ]);
    expect(detail.run.ending).toBe("accepted");
    expect(detail.run.startCommit).toBe(s.repo.head);

    // The next dispatch freezes the Work as it now stands.
    const next = await dispatchAndSettle(h, s.task.id);
    expect(next.run.number).toBe(2);
    expect(next.run.checks.map((c) => c.id)).toEqual(["new"]);
    expect(next.run.policy).toBe("warn");
  });

  it("a second dispatch while a run is active is refused with code busy (queued/running, and waiting)", async () => {
    const s = await makeScenario(h, { checkDefaults: [check("slow", "sleep 30")] });
    const first = await dispatchTask(SYSTEM_ACTOR, s.task.id);
    const busy = await errorOf(dispatchTask(SYSTEM_ACTOR, s.task.id));
    expect(busy.code).toBe("busy");
    expect(busy.message).toContain(`${s.task.key} already has run #1`);
    await cancelRun(SYSTEM_ACTOR, first.id);

    // A run waiting for a fix blocks a new dispatch too.
    const w = await makeScenario(h, { checkDefaults: [check("red", "false")] });
    const waiting = await dispatchAndSettle(h, w.task.id);
    expect(waiting.run.status).toBe("waiting");
    const again = await errorOf(dispatchTask(SYSTEM_ACTOR, w.task.id));
    expect(again.code).toBe("busy");
    expect(again.message).toContain("waiting for a fix");
  });
});

describe("policy required without an agent", () => {
  it("a red attempt waits for a fix; the next attempt runs on the branch as it then stands and is \
accepted", async () => {
    const s = await makeScenario(h, {
      checkDefaults: [check("fixed", 'echo "fixed.txt is missing"; test -f fixed.txt')],
    });
    const first = await dispatchAndSettle(h, s.task.id);
    expect(first.run.status).toBe("waiting");
    expect(first.run.gate).toBe("red");
    expect(first.run.ending).toBeNull();
    expect(first.attempts).toHaveLength(1);
    expect(first.attempts[0].gate).toBe("red");
    expect(first.attempts[0].commit).toBe(s.repo.head);
    const red = first.attempts[0].results[0];
    expect([red.verdict, red.exitCode, red.message]).toEqual(["failed", 1, "fixed.txt is missing"]);

    // A person fixes it in the task's worktree, on the task branch.
    expect(gitIn(s.worktree, "rev-parse", "--abbrev-ref", "HEAD")).toBe(s.task.branch);
    const fix = commitFiles(s.worktree, { "fixed.txt": "ok\n" }, "add fixed.txt");
    const { n } = await startNextAttempt(SYSTEM_ACTOR, first.run.id);
    expect(n).toBe(2);
    const second = await settle(h, first.run.id);
    expect(second.run.status).toBe("finished");
    expect(second.run.ending).toBe("accepted");
    expect(second.run.endingReason).toBe("gate green on attempt 2");
    expect(second.run.gate).toBe("green");
    expect(second.attempts.map((a) => [a.n, a.trigger, a.gate])).toEqual([
      [1, "dispatch", "red"],
      [2, "manual", "green"],
    ]);
    expect(second.attempts[1].commit).toBe(fix);
    expect(verdictsOf(second, 2)).toEqual({ fixed: "passed" });
    // The fix is on the task branch, not on the source repository's main.
    expect(gitIn(s.repo.dir, "rev-parse", "main")).toBe(s.repo.head);

    // Starting an attempt of a finished run is refused.
    expect((await errorOf(startNextAttempt(SYSTEM_ACTOR, first.run.id))).code).toBe("conflict");
  });

  it("an attempt a person starts always re-runs the checks, even on unchanged code", async () => {
    const counter = scratchFile("manual-count");
    const s = await makeScenario(h, {
      maxGateAttempts: 2,
      checkDefaults: [check("flaky", `echo run >> ${counter}; false`)],
    });
    const first = await dispatchAndSettle(h, s.task.id);
    await startNextAttempt(SYSTEM_ACTOR, first.run.id);
    const second = await settle(h, first.run.id);
    expect(lines(counter)).toHaveLength(2);
    expect(second.attempts[1].noChangeSince).toBeNull();
    expect(second.attempts[1].results[0].logAttempt).toBe(2);
  });

  it("when the attempts run out red the run ends partial with the best attempt (most required \
passed, the later on a tie) and its commit", async () => {
    const s = await makeScenario(
      h,
      {
        maxGateAttempts: 3,
        checkDefaults: [
          check("a", "test -f a.txt"),
          check("b", "test -f b.txt"),
          check("info", "true", { required: false }),
        ],
      },
      { files: { "a.txt": "a\n" } },
    );
    // Attempt 1: a passes, b fails (1 required passed).
    const one = await dispatchAndSettle(h, s.task.id);
    expect(verdictsOf(one, 1)).toEqual({ a: "passed", b: "failed", info: "passed" });
    // Attempt 2: an unrelated commit, still 1 passed: ties with attempt 1, and the later wins.
    const c2 = commitFiles(s.worktree, { "c.txt": "c\n" }, "unrelated");
    await startNextAttempt(SYSTEM_ACTOR, one.run.id);
    const two = await settle(h, one.run.id);
    expect(verdictsOf(two, 2)).toEqual({ a: "passed", b: "failed", info: "passed" });
    expect(two.run.status).toBe("waiting");
    // Attempt 3: a regression, 0 passed.
    commitFiles(s.worktree, { "a.txt": null }, "lose a.txt");
    await startNextAttempt(SYSTEM_ACTOR, one.run.id);
    const three = await settle(h, one.run.id);
    expect(verdictsOf(three, 3)).toEqual({ a: "failed", b: "failed", info: "passed" });

    expect(three.run.status).toBe("finished");
    expect(three.run.ending).toBe("partial");
    expect(three.run.endingReason).toBe("all 3 attempts used with the gate still red");
    expect(three.run.needsDecision).toBe(true);
    expect(three.run.bestAttempt).toBe(2);
    expect(three.run.bestCommit).toBe(c2);
    expect(three.attempts[1].commit).toBe(c2);
    // No fourth attempt.
    expect((await errorOf(startNextAttempt(SYSTEM_ACTOR, one.run.id))).code).toBe("conflict");
  });
});

describe("flaky checks", () => {
  it("a check that failed in the task's first run and passes in its next on the same commit is flaky", async () => {
    const counter = scratchFile("flaky-runs");
    const s = await makeScenario(h, {
      maxGateAttempts: 1,
      checkDefaults: [
        check("second-time", `echo run >> ${counter}; test "$(wc -l < ${counter})" -ge 2`),
        check("steady", "true"),
      ],
    });
    const first = await dispatchAndSettle(h, s.task.id);
    expect(verdictsOf(first, 1)).toEqual({ "second-time": "failed", steady: "passed" });
    expect(first.attempts[0].results.map((r) => r.flaky)).toEqual([false, false]);
    await decideRun(SYSTEM_ACTOR, first.run.id, { choice: "reject" });
    const second = await dispatchAndSettle(h, s.task.id);
    expect(second.run.number).toBe(2);
    expect(second.attempts[0].commit).toBe(first.attempts[0].commit);
    expect(second.attempts[0].results.map((r) => [r.checkId, r.verdict, r.flaky])).toEqual([
      ["second-time", "passed", true],
      ["steady", "passed", false],
    ]);
  });
});

// A new task's checkout is read before the checks from the index git wrote as it made it (checkout.ts
// `written`): nothing but HEAD's files is there yet, so there are no ignored files to list and no
// `read-tree HEAD` to start from. Anything that ran in the checkout first (an agent) has it read whole.
describe("a new task's checkout", () => {
  async function dispatchWatched(taskId: string) {
    const git: string[] = [];
    const unwatch = watchLaunches(({ file, args }) => {
      if (path.basename(file) === "git") git.push(args.find((a) => !a.startsWith("-")) ?? "");
    });
    try {
      return { detail: await dispatchAndSettle(h, taskId), git };
    } finally {
      unwatch();
    }
  }
  const unchangedRow = (detail: RunDetail) => detail.attempts[0].results.find((r) => r.checkId === "_unchanged");

  it("its first run lists no ignored files and starts no read-tree, and still sees a file a check rewrites; \
its next run reads the checkout whole", async () => {
    const s = await makeScenario(
      h,
      { requireTests: "warn", maxGateAttempts: 1, checkDefaults: [check("rewrite", "echo more >> README.md")] },
      { files: { "README.md": "base\n", "src/app.txt": "v1\n" } },
    );
    const first = await dispatchWatched(s.task.id);
    expect(first.git).not.toContain("read-tree");
    expect(first.git).not.toContain("ls-files");
    expect(first.detail.attempts[0].isDirty).toBe(false);
    expect(unchangedRow(first.detail)).toMatchObject({ verdict: "failed", required: true });
    expect(unchangedRow(first.detail)?.message).toContain("README.md (modified)");
    await decideRun(SYSTEM_ACTOR, first.detail.run.id, { choice: "reject" });
    const second = await dispatchWatched(s.task.id);
    expect(second.git).toContain("read-tree");
    expect(second.git).toContain("ls-files");
    // What the first run's check left is the checkout's now: changed.
    expect(second.detail.attempts[0].isDirty).toBe(true);
  });

  it("after an agent, the first run reads the checkout whole: the ignored file it left is removed and its \
uncommitted change makes the checkout changed", async () => {
    const s = await makeScenario(
      h,
      {
        agentCommand: "echo new > extra.txt; echo noise > build.log",
        maxGateAttempts: 1,
        checkDefaults: [check("seen", "test ! -e build.log && test -e extra.txt")],
      },
      { files: { "README.md": "base\n", ".gitignore": "*.log\n" } },
    );
    const { detail, git } = await dispatchWatched(s.task.id);
    expect(git).toContain("read-tree");
    expect(git).toContain("ls-files");
    expect(verdictsOf(detail, 1)).toEqual({ seen: "passed" });
    expect(detail.attempts[0].isDirty).toBe(true);
  });
});

describe("decisions on a partial run", () => {
  async function partialRun(extra: Record<string, unknown> = {}) {
    const s = await makeScenario(h, {
      maxGateAttempts: 1,
      checkDefaults: [check("fixed", "test -f fixed.txt")],
      ...extra,
    });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(detail.run.ending).toBe("partial");
    expect(detail.run.needsDecision).toBe(true);
    expect(detail.run.bestAttempt).toBe(1);
    expect(detail.run.bestCommit).toBe(s.repo.head);
    return { s, run: detail.run };
  }

  it("accept: the run ends accepted as it stands, naming the best attempt; a second answer is refused", async () => {
    const { s, run } = await partialRun();
    const decided = await decideRun(SYSTEM_ACTOR, run.id, { choice: "accept" });
    expect(decided.ending).toBe("accepted");
    expect(decided.decision).toBe("accept");
    expect(decided.needsDecision).toBe(false);
    expect(decided.endingReason).toBe(
      `accepted as it stands by Gatehouse (best attempt 1, commit ${s.repo.head.slice(0, 12)})`,
    );
    expect(decided.decidedAt).not.toBeNull();
    expect((await errorOf(decideRun(SYSTEM_ACTOR, run.id, { choice: "reject" }))).code).toBe("conflict");
  });

  it("reject: the run ends rejected", async () => {
    const { run } = await partialRun();
    const decided = await decideRun(SYSTEM_ACTOR, run.id, { choice: "reject" });
    expect(decided.ending).toBe("rejected");
    expect(decided.endingReason).toBe("rejected by Gatehouse");
    expect(decided.status).toBe("finished");
  });

  it("more attempts without an agent: the run waits for a fix again, and continues to green", async () => {
    const { s, run } = await partialRun();
    const decided = await decideRun(SYSTEM_ACTOR, run.id, { choice: "more-attempts", attempts: 2 });
    expect(decided.status).toBe("waiting");
    expect(decided.maxAttempts).toBe(3);
    expect(decided.ending).toBeNull();
    expect(decided.needsDecision).toBe(false);
    commitFiles(s.worktree, { "fixed.txt": "ok\n" }, "fix");
    expect((await startNextAttempt(SYSTEM_ACTOR, run.id)).n).toBe(2);
    const after = await settle(h, run.id);
    expect(after.run.ending).toBe("accepted");
    expect(after.attempts.map((a) => a.gate)).toEqual(["red", "green"]);
  });

  it("more attempts with an agent: the run continues by itself (the agent gets the failures) and is \
accepted", async () => {
    const { run } = await partialRun({
      agentCommand:
        'if [ "$GATEHOUSE_ATTEMPT" -ge 2 ]; then grep -q "What failed in attempt 1" ' +
        '"$GATEHOUSE_BRIEF_FILE" && echo ok > fixed.txt; fi; echo agent done',
    });
    const decided = await decideRun(SYSTEM_ACTOR, run.id, { choice: "more-attempts" });
    expect(decided.maxAttempts).toBe(2);
    const after = await settle(h, run.id);
    expect(after.run.status).toBe("finished");
    expect(after.run.ending).toBe("accepted");
    expect(after.attempts.map((a) => [a.n, a.trigger, a.gate])).toEqual([
      [1, "dispatch", "red"],
      [2, "decision", "green"],
    ]);
    expect(after.attempts[1].brief).toContain("### fixed — fixed passes: failed (exit code 1)");
  });
});

describe("the agent loop", () => {
  it("the agent fixes it on attempt 2: brief on stdin and in GATEHOUSE_BRIEF_FILE, with the failing \
check from attempt 2 on", async () => {
    const out = path.join(h.scratch, `agent-loop-${Date.now()}`);
    fs.mkdirSync(out);
    const agent = path.join(out, "agent.sh");
    fs.writeFileSync(
      agent,
      [
        "set -euo pipefail",
        `cat > ${out}/stdin-$GATEHOUSE_ATTEMPT.md`,
        `cp "$GATEHOUSE_BRIEF_FILE" ${out}/file-$GATEHOUSE_ATTEMPT.md`,
        'if grep -q "^## What failed" "$GATEHOUSE_BRIEF_FILE"; then echo fixed > answer.txt; ' +
          'msg="the real fix"; else echo "first try" > notes.txt; msg="a first try"; fi',
        "git add -A",
        'git commit --quiet -m "$msg"',
        'echo "agent attempt $GATEHOUSE_ATTEMPT: $msg"',
      ].join("\n"),
    );
    const s = await makeScenario(
      h,
      {
        maxGateAttempts: 3,
        agentCommand: `bash ${agent}`,
        checkDefaults: [
          check(
            "answer",
            'echo "answer.txt does not say fixed"; test "$(cat answer.txt 2>/dev/null || true)" = fixed',
            { name: "The answer is fixed" },
          ),
        ],
      },
      { task: { title: "Fix the answer", description: "Write fixed into answer.txt." } },
    );
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(detail.run.ending).toBe("accepted");
    expect(detail.run.endingReason).toBe("gate green on attempt 2");
    expect(detail.attempts.map((a) => [a.n, a.trigger, a.agentVerdict, a.gate])).toEqual([
      [1, "dispatch", "passed", "red"],
      [2, "agent-loop", "passed", "green"],
    ]);
    expect(detail.attempts[1].agentMessage).toBe("agent attempt 2: the real fix");
    expect(detail.attempts[1].agentLogTail).toContain("agent attempt 2: the real fix");
    expect(gitIn(s.worktree, "log", "--format=%s", "-2").split("\n")).toEqual(["the real fix", "a first try"]);
    expect(detail.attempts[1].commit).toBe(gitIn(s.worktree, "rev-parse", "HEAD"));

    // The full logs are on disk where the log pages read them.
    expect(fs.readFileSync(agentLogPathOf(h.dataDir, detail.run.id, 2), "utf8")).toContain(
      "agent attempt 2: the real fix",
    );
    expect(fs.readFileSync(checkLogPathOf(h.dataDir, detail.run.id, 1, "answer"), "utf8")).toBe(
      "answer.txt does not say fixed\n",
    );
    expect(fs.readFileSync(checkLogPathOf(h.dataDir, detail.run.id, 2, "answer"), "utf8")).toBe(
      "answer.txt does not say fixed\n",
    );

    const stdin1 = fs.readFileSync(path.join(out, "stdin-1.md"), "utf8");
    const stdin2 = fs.readFileSync(path.join(out, "stdin-2.md"), "utf8");
    // Stdin and the file carry the same brief, and it is stored with the attempt.
    expect(fs.readFileSync(path.join(out, "file-1.md"), "utf8")).toBe(stdin1);
    expect(fs.readFileSync(path.join(out, "file-2.md"), "utf8")).toBe(stdin2);
    expect(detail.attempts[0].brief).toBe(stdin1);
    expect(detail.attempts[1].brief).toBe(stdin2);

    expect(stdin1).toContain(`# ${s.task.key}: Fix the answer`);
    expect(stdin1).toContain("Write fixed into answer.txt.");
    expect(stdin1).toContain("- answer — The answer is fixed (required)");
    expect(stdin1).toContain("attempt 1 of 3");
    expect(stdin1).not.toContain("What failed");
    expect(stdin2).toContain("attempt 2 of 3");
    expect(stdin2).toContain("## What failed in attempt 1");
    expect(stdin2).toContain("### answer — The answer is fixed: failed (exit code 1)");
    expect(stdin2).toContain("answer.txt does not say fixed");
  });

  it("an agent that changes nothing: the next attempt is recorded as no change since attempt 1 and \
its checks are not re-run", async () => {
    const counter = scratchFile("nochange-count");
    const s = await makeScenario(h, {
      maxGateAttempts: 3,
      agentCommand: "echo 'I looked and changed nothing'",
      checkDefaults: [check("count", `echo run >> ${counter}; echo still red; false`)],
    });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(lines(counter)).toEqual(["run"]);
    expect(detail.attempts.map((a) => [a.n, a.noChangeSince, a.gate])).toEqual([
      [1, null, "red"],
      [2, 1, "red"],
      [3, 1, "red"],
    ]);
    // The unchanged attempts show attempt 1's results, pointing at attempt 1's log.
    for (const n of [2, 3]) {
      const r = detail.attempts[n - 1].results[0];
      expect([r.verdict, r.message, r.logAttempt]).toEqual(["failed", "still red", 1]);
    }
    expect(detail.run.ending).toBe("partial");
    expect(detail.run.bestAttempt).toBe(3);
  });

  it("an agent that fails and changes nothing: the green gate accepts, and the ending says the checks passed on \
the code as it was; one that fails after changing something is named too; the run records its caveat", async () => {
    // The run of a new task with this agent and these checks, settled: its ending, reason and caveat.
    const endingOf = async (agentCommand: string, checks: ReturnType<typeof check>[], checksPolicy?: string) => {
      const s = await makeScenario(h, {
        agentCommand,
        checkDefaults: checks,
        ...(checksPolicy ? { checksPolicy } : {}),
      });
      const { run } = await dispatchAndSettle(h, s.task.id);
      return [run.ending, run.endingReason, run.agentCaveat];
    };
    const ok = [check("ok", "true")];
    expect(await endingOf("echo 'no API key'; exit 3", ok)).toEqual([
      "accepted",
      "gate green on attempt 1; the agent exited 3 and changed nothing: the checks passed on the code as it was " +
        "before the task",
      "agent-failed-no-change",
    ]);
    expect((await endingOf("echo half > half.txt; exit 1", ok)).slice(1)).toEqual([
      "gate green on attempt 1; the agent exited 1; the checks passed on what it left",
      "agent-failed",
    ]);
    // Policy warn accepts a red gate: the reason names the agent's ending and claims no passed check.
    expect((await endingOf("echo x > left.txt; exit 1", [check("red", "false")], "warn")).slice(1)).toEqual([
      "policy warn: accepted with the red gate shown as a warning; the agent exited 1",
      "agent-failed",
    ]);
    expect((await endingOf("exit 3", ok, "off")).slice(1)).toEqual([
      "policy off: checks are not run; the agent exited 3",
      "agent-failed",
    ]);
    // An agent that passes adds nothing to the reason, and the run has no caveat.
    expect((await endingOf("echo done > done.txt", ok)).slice(1)).toEqual(["gate green on attempt 1", null]);
    // A run that is not accepted has none either: its badge already says it did not pass.
    expect(await endingOf("exit 1", [check("red", "false")])).toEqual([
      "partial",
      "all 3 attempts used with the gate still red",
      null,
    ]);
  });

  it("an agent that could not start (exit 127) makes the run inconclusive, and no check runs", async () => {
    const s = await makeScenario(h, {
      agentCommand: "gatehouse-no-such-agent-command --fix",
      checkDefaults: [check("ok", "true")],
    });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(detail.run.ending).toBe("inconclusive");
    expect(detail.run.endingReason).toMatch(
      /^the agent command could not start \(exit code 127: .*command not found\)$/,
    );
    expect(detail.attempts).toHaveLength(1);
    expect(detail.attempts[0].agentExitCode).toBe(127);
    expect(detail.attempts[0].results).toEqual([]);
    expect(detail.run.status).toBe("finished");
  });

  it("budgetSec: a slow agent is stopped when the budget runs out, and the run ends partial naming \
the budget", async () => {
    const pidFile = scratchFile("budget-agent.pid");
    const s = await makeScenario(h, {
      maxGateAttempts: 5,
      budgetSec: 1,
      agentCommand: `echo $$ > ${pidFile}; echo working; sleep 30; echo never`,
      checkDefaults: [check("red", "false")],
    });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(detail.run.ending).toBe("partial");
    expect(detail.run.endingReason).toMatch(/budget of 1s spent/);
    expect(detail.attempts).toHaveLength(1);
    expect(detail.attempts[0].agentVerdict).toBe("timeout");
    expect(detail.attempts[0].agentMessage).toMatch(/budget ran out/);
    expect(detail.run.spentMs).toBeGreaterThanOrEqual(1000);
    // The budget covers the checks too: none is started once it is spent.
    expect(detail.attempts[0].results.map((r) => [r.checkId, r.verdict, r.message])).toEqual([
      ["red", "skipped", "not run: the run's budget of 1s is spent"],
    ]);
    const pgid = Number(fs.readFileSync(pidFile, "utf8"));
    expect(await waitFor(() => liveProcessesInGroup(pgid).length === 0, { what: "the agent's group to end" })).toBe(
      true,
    );
  });
});

describe("the budget bounds checks", () => {
  it("a check is stopped when what is left of the budget runs out, and the run ends partial", async () => {
    const s = await makeScenario(h, {
      budgetSec: 2,
      checkDefaults: [check("slow", "echo begun; sleep 30", { timeoutSec: 600 }), check("after", "true")],
    });
    const detail = await dispatchAndSettle(h, s.task.id);
    const [slow, after] = detail.attempts[0].results;
    expect(slow.verdict).toBe("timeout");
    expect(slow.message).toBe("stopped when the run's budget ran out · begun");
    expect(slow.durationMs).toBeLessThan(20_000);
    expect(after.verdict).toBe("skipped");
    expect(detail.run.ending).toBe("partial");
    expect(detail.run.endingReason).toMatch(/budget of 2s spent/);
  });
});

describe("checks in an attempt", () => {
  it("failFast: the checks after the first failing required one are skipped", async () => {
    const marker = scratchFile("failfast-ran");
    const s = await makeScenario(h, {
      maxGateAttempts: 1,
      failFast: true,
      checkDefaults: [
        check("first", "true"),
        check("optional-red", "false", { required: false }),
        check("breaks", "echo broke; exit 4"),
        check("after", `echo ran > ${marker}`),
        check("report", "true", { required: false }),
      ],
    });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(verdictsOf(detail, 1)).toEqual({
      first: "passed",
      "optional-red": "failed",
      breaks: "failed",
      after: "skipped",
      report: "skipped",
    });
    expect(detail.attempts[0].results.find((r) => r.checkId === "after")!.message).toBe(
      'not run: failFast stopped the attempt after "breaks" failed',
    );
    expect(fs.existsSync(marker)).toBe(false);
    expect(detail.run.ending).toBe("partial");
  });

  it("by default every check runs, even after a required one failed", async () => {
    const marker = scratchFile("nofailfast-ran");
    const s = await makeScenario(h, {
      maxGateAttempts: 1,
      checkDefaults: [
        check("breaks", "exit 4"),
        check("after", `echo ran > ${marker}`),
        check("report", "true", { required: false }),
      ],
    });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(verdictsOf(detail, 1)).toEqual({ breaks: "failed", after: "passed", report: "passed" });
    expect(detail.attempts[0].results[0].exitCode).toBe(4);
    expect(fs.existsSync(marker)).toBe(true);
  });

  it("timeout, expectExit and expectStdout decide verdicts; a non-required red check does not \
change the gate", async () => {
    const s = await makeScenario(h, {
      checkDefaults: [
        check("slow", "echo waiting; sleep 30", { timeoutSec: 1, required: false }),
        check("no-todo", "grep -rn TODO . --exclude-dir=.git", { expectExit: 1 }),
        check("says-ok", "echo 'all 3 tests OK'", { expectStdout: "tests OK" }),
        check("says-nothing", "echo done", { expectStdout: "tests OK", required: false }),
      ],
    });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(verdictsOf(detail, 1)).toEqual({
      slow: "timeout",
      "no-todo": "passed",
      "says-ok": "passed",
      "says-nothing": "failed",
    });
    const byId = Object.fromEntries(detail.attempts[0].results.map((r) => [r.checkId, r]));
    expect(byId.slow.message).toBe("timed out after 1s · waiting");
    expect(byId["no-todo"].exitCode).toBe(1);
    expect(byId["says-nothing"].message).toBe('exit code 0, but the output does not contain "tests OK"');
    expect(detail.run.gate).toBe("green");
    expect(detail.run.ending).toBe("accepted");
  });

  it("a check's message passes over the warning and the bare FAIL printed after what failed", async () => {
    const s = await makeScenario(h, {
      checkDefaults: [
        check("coloured", "printf '\\033[31m✗ rounds half-even\\033[0m\\nFAIL\\nwarning: deprecated API\\n'; exit 1"),
        check("plain", "echo compiling; echo stopped; exit 2", { required: false }),
      ],
    });
    const detail = await dispatchAndSettle(h, s.task.id);
    const byId = Object.fromEntries(detail.attempts[0].results.map((r) => [r.checkId, r]));
    expect(byId.coloured.verdict).toBe("failed");
    expect(byId.coloured.message).toBe("✗ rounds half-even");
    // Nothing after it to pass over: the last line stands.
    expect(byId.plain.message).toBe("stopped");
  });

  it("a required check whose cwd is missing is verdict error, and the run is inconclusive", async () => {
    const s = await makeScenario(h, {
      checkDefaults: [check("build", "true", { cwd: "packages/missing" }), check("other", "true")],
    });
    const detail = await dispatchAndSettle(h, s.task.id);
    const build = detail.attempts[0].results[0];
    expect(build.verdict).toBe("error");
    expect(build.message).toBe('cwd "packages/missing" does not exist in the checkout');
    expect(verdictsOf(detail, 1).other).toBe("passed");
    expect(detail.run.ending).toBe("inconclusive");
    expect(detail.run.endingReason).toBe(
      'required check "build" could not run: cwd "packages/missing" does not exist in the checkout',
    );
    expect(detail.run.needsDecision).toBe(false);
  });

  it("a check runs in its cwd inside the checkout", async () => {
    const s = await makeScenario(
      h,
      { checkDefaults: [check("in-pkg", 'test "$(cat marker.txt)" = pkg; pwd', { cwd: "pkg" })] },
      { files: { "pkg/marker.txt": "pkg\n" } },
    );
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(verdictsOf(detail, 1)).toEqual({ "in-pkg": "passed" });
    expect(detail.attempts[0].results[0].message).toBe(path.join(fs.realpathSync(s.worktree), "pkg"));
  });
});

describe("policies", () => {
  it("warn: one attempt, accepted even when red, with the red gate kept", async () => {
    const s = await makeScenario(h, {
      checksPolicy: "warn",
      maxGateAttempts: 3,
      checkDefaults: [check("red", "false")],
    });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(detail.run.maxAttempts).toBe(1);
    expect(detail.attempts).toHaveLength(1);
    expect(detail.run.ending).toBe("accepted");
    expect(detail.run.gate).toBe("red");
    expect(detail.run.endingReason).toMatch(/policy warn/);
    expect(verdictsOf(detail, 1)).toEqual({ red: "failed" });
  });

  it("off: the agent runs once, the checks are skipped, the gate is off and the run is accepted", async () => {
    const marker = scratchFile("policy-off-check-ran");
    const s = await makeScenario(h, {
      checksPolicy: "off",
      agentCommand: "echo agent ran once",
      checkDefaults: [check("red", `echo ran > ${marker}; false`)],
    });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(detail.run.ending).toBe("accepted");
    expect(detail.run.gate).toBe("off");
    expect(detail.attempts).toHaveLength(1);
    expect(detail.attempts[0].gate).toBe("off");
    expect(detail.attempts[0].agentVerdict).toBe("passed");
    expect(detail.attempts[0].agentMessage).toBe("agent ran once");
    expect(detail.attempts[0].results.map((r) => [r.checkId, r.verdict])).toEqual([["red", "skipped"]]);
    expect(fs.existsSync(marker)).toBe(false);
  });
});

describe("runs that cannot be judged, and cancelling", () => {
  it("an unclonable repository ends the run inconclusive with the git error in the reason", async () => {
    const missing = path.join(h.scratch, "no-such-repository");
    const s = await makeScenario(h, { repoUrl: missing, checkDefaults: [check("ok", "true")] });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(detail.run.status).toBe("finished");
    expect(detail.run.ending).toBe("inconclusive");
    expect(detail.run.endingReason).toContain("the checkout could not be prepared");
    expect(detail.run.endingReason).toContain(`could not clone ${missing}`);
    expect(detail.run.endingReason).toMatch(/does not exist/);
    expect(detail.attempts).toHaveLength(1);
    expect(detail.attempts[0].status).toBe("finished");
    // The check is not dropped: it is an error result saying why.
    expect(detail.attempts[0].results.map((r) => [r.checkId, r.verdict])).toEqual([["ok", "error"]]);
    expect(detail.attempts[0].results[0].message).toMatch(/^checkout not ready: could not clone/);
  });

  it("with no base branch set, a task on the repository's default branch is refused at the checkout; the \
branch is not moved", async () => {
    const s = await makeScenario(
      h,
      { baseBranch: null, checkDefaults: [check("edit", "echo changed > README.md && git commit -qam x")] },
      { task: { branch: "main" } },
    );
    const tip = execFileSync("git", ["rev-parse", "main"], { cwd: s.repo.dir, encoding: "utf8" });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(detail.run.ending).toBe("inconclusive");
    expect(detail.attempts[0].results[0].message).toBe(
      `checkout not ready: the task's branch: "main" is the Work's base branch; a task works on a branch of its own`,
    );
    expect(execFileSync("git", ["rev-parse", "main"], { cwd: s.repo.dir, encoding: "utf8" })).toBe(tip);
  });

  it("cancelRun on a running run ends it rejected and its processes are gone", async () => {
    const pidFile = scratchFile("cancel.pids");
    const s = await makeScenario(h, {
      checkDefaults: [check("long", `sleep 60 & echo "$$ $!" > ${pidFile}; echo started; wait`), check("next", "true")],
    });
    const run = await dispatchTask(SYSTEM_ACTOR, s.task.id);
    const pids = await waitFor(
      // Both pids and the newline: the file exists (empty) before echo has written to it.
      () => {
        const m = fs.existsSync(pidFile) ? /^(\d+) (\d+)\n$/.exec(fs.readFileSync(pidFile, "utf8")) : null;
        return m ? [Number(m[1]), Number(m[2])] : null;
      },
      {
        what: "the check to start",
      },
    );
    try {
      const cancelled = await cancelRun(SYSTEM_ACTOR, run.id);
      expect(cancelled.status).toBe("finished");
      expect(cancelled.ending).toBe("rejected");
      expect(cancelled.endingReason).toBe("cancelled by Gatehouse");
      expect(h.executor.isHolding(run.id)).toBe(false);
      expect(await waitUntilGone(pids)).toEqual([]);
      expect(liveProcessesInGroup(pids[0])).toEqual([]);

      const detail = await settle(h, run.id);
      expect(detail.attempts[0].results.map((r) => [r.checkId, r.verdict])).toEqual([
        ["long", "skipped"],
        ["next", "skipped"],
      ]);
      expect(detail.attempts[0].results[0].message).toBe("not run to the end: the run was stopped");
      // The check the cancel cut short had started (a duration, its output in the log): its row reads
      // "Stopped"; the one after it never started and reads "Skipped".
      const [long, next] = detail.attempts[0].results;
      expect(long.logTail).toContain("started");
      expect([isStoppedRow(long), isStoppedRow(next)]).toEqual([true, false]);
      // No required check failed before the cancel: the gate was never decided, and says "stopped" — on the
      // run (the inbox, the Work page) and on its attempt (the run page) alike, never "pending".
      expect([detail.run.gate, detail.attempts[0].gate]).toEqual(["stopped", "stopped"]);
      // The run's JSON says who cancelled it in a field of its own (webhooks too), not only in the reason.
      expect(presentRun(detail)).toMatchObject({ ending: "rejected", cancelledBy: "Gatehouse", gate: "stopped" });
      // A finished run cannot be cancelled again.
      expect((await errorOf(cancelRun(SYSTEM_ACTOR, run.id))).code).toBe("conflict");
    } finally {
      killQuietly(pids, [`GATEHOUSE_RUN_ID=${run.id}`]);
    }
  });

  it("a run cancelled after a required check failed keeps its red gate, on the run and its attempt", async () => {
    const started = scratchFile("started");
    const s = await makeScenario(h, {
      checkDefaults: [check("red", "false"), check("slow", `touch ${started}; exec sleep 60`), check("next", "true")],
    });
    const run = await dispatchTask(SYSTEM_ACTOR, s.task.id);
    await waitFor(() => (fs.existsSync(started) ? true : null), { what: "the slow check to start" });
    await cancelRun(SYSTEM_ACTOR, run.id);
    const detail = await settle(h, run.id);
    expect(verdictsOf(detail, 1)).toEqual({ red: "failed", slow: "skipped", next: "skipped" });
    expect([detail.run.ending, detail.run.gate, detail.attempts[0].gate]).toEqual(["rejected", "red", "red"]);
    expect(presentRun(detail)).toMatchObject({ ending: "rejected", gate: "red", attempts: [{ gate: "red" }] });
  });

  it("a run cancelled while queued ends with gate stopped, not pending", async () => {
    const busy = scratchFile("busy");
    // Two runs hold both slots of the executor (concurrency 2): the third waits in its queue.
    const blockers = await Promise.all(
      [1, 2].map(async (i) => {
        const s = await makeScenario(h, { checkDefaults: [check("hold", `touch ${busy}-${i}; exec sleep 60`)] });
        return dispatchTask(SYSTEM_ACTOR, s.task.id);
      }),
    );
    try {
      await waitFor(() => (fs.existsSync(`${busy}-1`) && fs.existsSync(`${busy}-2`) ? true : null), {
        what: "both slots to be taken",
      });
      const s = await makeScenario(h, { checkDefaults: [check("ok", "true")] });
      const queued = await dispatchTask(SYSTEM_ACTOR, s.task.id);
      expect(queued.status).toBe("queued");
      const cancelled = await cancelRun(SYSTEM_ACTOR, queued.id);
      expect([cancelled.ending, cancelled.gate]).toEqual(["rejected", "stopped"]);
      const detail = await settle(h, queued.id);
      expect([detail.run.gate, detail.attempts[0].gate]).toEqual(["stopped", "stopped"]);
    } finally {
      for (const b of blockers) await cancelRun(SYSTEM_ACTOR, b.id);
    }
  });

  // Ten engineers press Cancel at once: one wins, the others are told it is already cancelled.
  for (const state of ["running", "waiting"] as const) {
    it(`ten parallel cancels of a ${state} run: exactly one succeeds and one cancellation is audited`, async () => {
      const pidFile = scratchFile("race.pids");
      const s = await makeScenario(h, {
        checkDefaults: [
          state === "running" ? check("long", `sleep 60 & echo "$!" > ${pidFile}; wait`) : check("red", "false"),
        ],
      });
      const run =
        state === "running" ? await dispatchTask(SYSTEM_ACTOR, s.task.id) : (await dispatchAndSettle(h, s.task.id)).run;
      const pids =
        state === "running"
          ? await waitFor(() => (fs.existsSync(pidFile) ? [Number(fs.readFileSync(pidFile, "utf8"))] : null), {
              what: "the check to start",
            })
          : [];
      try {
        const answers = await Promise.allSettled(Array.from({ length: 10 }, () => cancelRun(SYSTEM_ACTOR, run.id)));
        const won = answers.filter((a) => a.status === "fulfilled");
        const refused = answers.flatMap((a) => (a.status === "rejected" ? [a.reason as AppError] : []));
        expect(won).toHaveLength(1);
        expect(refused.map((e) => [e.code, e.status])).toEqual(Array(9).fill(["conflict", 409]));
        expect(refused[0].message).toMatch(/already cancelled or finished \(cancelled by Gatehouse\)/);
        const audited = await listAuditEvents({ actions: ["run.cancel"], take: 100 });
        expect(audited.filter((e) => e.runId === run.id)).toHaveLength(1);
        const detail = await settle(h, run.id);
        expect([detail.run.status, detail.run.ending, detail.run.endingReason]).toEqual([
          "finished",
          "rejected",
          "cancelled by Gatehouse",
        ]);
        expect(detail.run.gate).not.toBe("running");
        expect(detail.attempts.every((a) => a.status === "finished")).toBe(true);
        if (state === "running") expect(await waitUntilGone(pids)).toEqual([]);
      } finally {
        killQuietly(pids, [`GATEHOUSE_RUN_ID=${run.id}`]);
      }
    });
  }

  it("cancelRun on a run waiting for a fix ends it rejected", async () => {
    const s = await makeScenario(h, { checkDefaults: [check("red", "false")] });
    const waiting = await dispatchAndSettle(h, s.task.id);
    expect(waiting.run.status).toBe("waiting");
    const cancelled = await cancelRun(SYSTEM_ACTOR, waiting.run.id);
    expect([cancelled.status, cancelled.ending, cancelled.endingReason]).toEqual([
      "finished",
      "rejected",
      "cancelled by Gatehouse",
    ]);
    // The task is free for a new run.
    const next = await dispatchAndSettle(h, s.task.id);
    expect(next.run.number).toBe(2);
  });
});
