// The AttemptContext alone: the budget's rules, the one `exec` (environment, time spent, masking), the change
// read once, a recorded row.
import fs from "node:fs";
import path from "node:path";
import { gitIn } from "../../testing/git-repo";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attemptContextFor } from "../../testing/attempt-context";
import { createHarness, makeScenario, type Harness } from "../../testing/runner-harness";
import { Budget, timeoutWords } from "./budget";
import { repoDirOf } from "../checkout/checkout";
import { VerifiedStore } from "../checkout/verified-store";

describe("Budget", () => {
  const budget = (budgetSec: number | null, spentMs = 0, budgetFromMs = 0) =>
    new Budget({ budgetSec, spentMs, budgetFromMs }, 30 * 60 * 1000);

  it("without a budget: nothing is spent, a check keeps its own limit, the agent gets the default", () => {
    const b = budget(null);
    expect(b.remainingMs()).toBe(null);
    expect(b.isSpent()).toBe(false);
    expect(b.timeoutFor(600_000)).toEqual({ timeoutMs: 600_000, isBudgetBound: false });
    expect(b.timeoutFor(null)).toEqual({ timeoutMs: 30 * 60 * 1000, isBudgetBound: false });
  });

  it("with a budget: what is left bounds a longer limit, and the agent whatever it is", () => {
    const b = budget(60, 50_000, 0);
    expect(b.remainingMs()).toBe(10_000);
    expect(b.timeoutFor(600_000)).toEqual({ timeoutMs: 10_000, isBudgetBound: true });
    expect(b.timeoutFor(5_000)).toEqual({ timeoutMs: 5_000, isBudgetBound: false });
    expect(b.timeoutFor(null)).toEqual({ timeoutMs: 10_000, isBudgetBound: true });
  });

  it("counts from budgetFromMs (more attempts granted), and spends into the run", () => {
    const run = { budgetSec: 10, spentMs: 25_000, budgetFromMs: 20_000 };
    const b = new Budget(run, 1);
    expect(b.remainingMs()).toBe(5_000);
    b.spend(5_000);
    expect(run.spentMs).toBe(30_000);
    expect(b.isSpent()).toBe(true);
    // A spent budget still gives a command 1 ms, never 0 or less (the callers skip it first).
    expect(b.timeoutFor(null).timeoutMs).toBe(1);
    expect(b.spentMessage()).toBe("the run's budget of 10s is spent");
  });

  it("says how a command was cut off", () => {
    expect(timeoutWords({ timeoutMs: 600_000, isBudgetBound: false })).toBe("timed out after 600s");
    expect(timeoutWords({ timeoutMs: 3, isBudgetBound: true })).toBe("stopped when the run's budget ran out");
  });
});

describe("AttemptContext", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => {
    await h.cleanup();
  });

  it("exec runs a command with the scrubbed environment plus what the step adds, and spends its time", async () => {
    const s = await makeScenario(h, { budgetSec: 600, agentEnvPassthrough: ["API_KEY"] });
    const { ctx } = await attemptContextFor(h, s, { secrets: { API_KEY: "sk-context-secret-1234" } });
    const logPath = path.join(h.scratch, "exec.log");
    const outcome = await ctx.exec({
      command: 'echo "$GATEHOUSE_CHECK_ID|$EXTRA|${PATH%%:*}|$API_KEY|${DATABASE_URL:-none}"',
      cwd: ctx.checkoutPath,
      env: { checkId: "unit", passthrough: ["API_KEY"], extra: { EXTRA: "x" }, pathPrefix: "/opt/shims" },
      timeoutMs: 10_000,
      logPath,
      liveName: "unit",
    });
    expect(outcome.exitCode).toBe(0);
    // The secret's value is masked in the log, as everywhere output is stored.
    expect(fs.readFileSync(logPath, "utf8").trim()).toBe("unit|x|/opt/shims|***|none");
    expect(ctx.run.spentMs).toBe(outcome.durationMs);
    expect(ctx.budget.remainingMs()).toBe(600_000 - outcome.durationMs);
  });

  it("reads the change since the start commit once, and again with the files Gatehouse added to it (not the \
checkout as it is by then)", async () => {
    const s = await makeScenario(h, {}, { files: { "a.txt": "a\n" } });
    const { ctx } = await attemptContextFor(h, s);
    fs.writeFileSync(path.join(ctx.checkoutPath, "b.txt"), "b\n");
    const first = await ctx.change();
    expect(first.changes).toEqual([{ status: "A", path: "b.txt" }]);
    fs.writeFileSync(path.join(ctx.checkoutPath, "c.txt"), "c\n");
    expect(await ctx.change()).toBe(first);
    expect(await first.commit()).toBe(await first.commit());
    const probe = new Map([["tests/redteam/p.test.js", Buffer.from("probe\n")]]);
    ctx.forgetChange(await first.store.withFiles(first.tree, probe, ctx.checkoutPath));
    const again = await ctx.change();
    expect(again.changes.map((c) => c.path)).toEqual(["b.txt", "tests/redteam/p.test.js"]);
    // Its commit is made in the checkout, which has the new objects too.
    expect(await again.commit()).toMatch(/^[0-9a-f]{40}$/);
    expect(gitIn(ctx.checkoutPath, "show", `${await again.commit()}:tests/redteam/p.test.js`)).toBe("probe");
  });

  it("a change of checks alone (the start commit's tree) is read with no store until a step asks for one, and none \
once the attempt is closed", async () => {
    const s = await makeScenario(h, {}, { files: { "a.txt": "a\n" } });
    const { ctx } = await attemptContextFor(h, s);
    const storeDir = path.join(h.dataDir, "run-files", ctx.run.id, String(ctx.attempt.n), "verified-objects");
    // Another store of the same clone read the start commit's tree before (as an earlier attempt's would).
    const repoDir = repoDirOf(h.dataDir, ctx.run.workId);
    const earlier = VerifiedStore.open({ dir: path.join(h.scratch, "earlier-store"), repoDir, runAs: null });
    const startTree = await earlier.treeOf(ctx.run.startCommit!);
    earlier.close();
    expect(VerifiedStore.knownTreeOf(repoDir, ctx.run.startCommit!)).toBe(startTree);
    // Not for another Work's clone, which may not hold the commit.
    expect(VerifiedStore.knownTreeOf(path.join(h.dataDir, "repos", "another"), ctx.run.startCommit!)).toBeNull();
    const change = await ctx.change();
    expect(change).toMatchObject({ tree: startTree, changes: [], diff: "" });
    expect(fs.existsSync(storeDir)).toBe(false);
    expect(change.store.dir).toBe(storeDir);
    expect(fs.existsSync(storeDir)).toBe(true);
    await ctx.close();
    expect(() => change.store).toThrow(/attempt is over/);
  });

  it("records a row with its details as its log, masked", async () => {
    const s = await makeScenario(h, {});
    const { ctx } = await attemptContextFor(h, s, { secrets: { TOKEN: "tok-recorded-secret-5678" } });
    ctx.results.open();
    ctx.record(
      {
        checkId: "_tests-added",
        name: "Tests were added",
        kind: "proof",
        required: false,
        verdict: "failed",
        message: "no test file changed (tok-recorded-secret-5678)",
        details: "looked at tok-recorded-secret-5678\n",
      },
      new Date(),
    );
    await ctx.results.close();
    const row = ctx.results.view().find((r) => r.checkId === "_tests-added")!;
    expect(row.message).toBe("no test file changed (***)");
    expect(row.logTail).toBe("looked at ***\n");
    const log = path.join(h.dataDir, "logs", ctx.run.id, "1", "_tests-added.log");
    expect(fs.readFileSync(log, "utf8")).toBe("looked at ***\n");
  });
});
