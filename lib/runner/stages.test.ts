// A task through the stages of a lane, end to end with real commands (issue 26): each stage dispatched with
// its own checks and brief, green moving the task on (autoAdvance dispatching the next at once), the last
// stage accepted; a stage stuck after its attempts — its output unchanged is not re-checked — and each
// decision on it (retry, skip the stage, send it back, reject).
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "../auth/actor";
import { getDb } from "../db/client";
import { findTask } from "../db/tasks";
import { readBoard, readStepper } from "../services/board";
import { decideRun, dispatchTask } from "../services/runs";
import { check, createHarness, makeScenario, settle, type Harness } from "../testing/runner-harness";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.cleanup());

// An agent that reads its stage from the brief's first line and writes that stage's output.
function stageAgent(): string {
  const script = path.join(h.scratch, `stage-agent-${Date.now()}.sh`);
  fs.writeFileSync(
    script,
    [
      "set -e",
      "stage=$(head -1 \"$GATEHOUSE_BRIEF_FILE\" | awk '{print $NF}')",
      'echo "agent at stage $stage"',
      'case "$stage" in',
      "  research) mkdir -p notes; printf 'verdict: go\\n' > notes/research.md ;;",
      "  spec) printf '# Spec\\n## Acceptance\\n' > spec.md ;;",
      "  build) echo built > done.txt ;;",
      "esac",
    ].join("\n"),
  );
  return `bash ${script}`;
}

const LANE = {
  id: "delivery",
  name: "Delivery",
  stages: [
    {
      id: "research",
      name: "Research",
      output: "notes/research.md",
      checks: [check("notes", "test -s notes/research.md")],
    },
    { id: "spec", name: "Spec", output: "spec.md", checks: [check("spec", "grep -q Acceptance spec.md")] },
    { id: "build", name: "Build", checks: [check("built", "test -f done.txt")] },
  ],
};

async function runsOf(taskId: string) {
  return getDb().run.findMany({ where: { taskId }, orderBy: { number: "asc" } });
}

// The task's run number n, once it ended (a stage accepted dispatches the next before its own run settles).
async function settledRun(taskId: string, n: number) {
  const run = (await runsOf(taskId)).find((r) => r.number === n);
  if (!run) throw new Error(`run #${n} of the task was never dispatched`);
  return settle(h, run.id);
}

describe("a task through three stages", () => {
  it("runs each stage with its own checks and brief, advancing on green to the last stage accepted", async () => {
    const s = await makeScenario(
      h,
      { agentCommand: stageAgent(), lanes: [LANE], autoAdvance: true, checkDefaults: [check("never", "false")] },
      { task: { lane: "delivery" } },
    );
    expect([s.task.lane, s.task.stage]).toEqual(["delivery", "research"]);
    await dispatchTask(SYSTEM_ACTOR, s.task.id);
    const details = [await settledRun(s.task.id, 1), await settledRun(s.task.id, 2), await settledRun(s.task.id, 3)];
    expect(details.map((d) => [d.run.stage, d.run.ending, d.run.checks.map((c) => c.id)])).toEqual([
      ["research", "accepted", ["notes"]],
      ["spec", "accepted", ["spec"]],
      ["build", "accepted", ["built"]],
    ]);
    const brief = details[0].attempts[0].brief ?? "";
    expect(brief.split("\n")[0]).toBe(`# Stage brief: ${s.task.key} research`);
    expect(brief).toContain("## The check that must pass");
    expect(brief).toContain("- Write the output to notes/research.md.");
    expect(brief).toContain(`- Do only the research stage of ${s.task.key}.`);
    expect(brief).not.toContain("never");
    expect((await findTask({ id: s.task.id }))?.stage).toBe("build");
    expect(await runsOf(s.task.id)).toHaveLength(3);
    const board = await readBoard(SYSTEM_ACTOR, s.work.id);
    expect(board.lanes[0].columns.map((c) => [c.id, c.cards.map((k) => [k.key, k.state, k.gate, k.attempts])])).toEqual(
      [
        ["research", []],
        ["spec", []],
        ["build", [[s.task.key, "done", "green", 1]]],
      ],
    );
    const stepper = await readStepper((await findTask({ id: s.task.id }))!, s.work);
    expect(stepper?.steps.map((st) => [st.id, st.state, st.gate])).toEqual([
      ["research", "done", "green"],
      ["spec", "done", "green"],
      ["build", "done", "green"],
    ]);
  });

  it("without autoAdvance, a green stage leaves the task waiting at the next one", async () => {
    const s = await makeScenario(h, { agentCommand: stageAgent(), lanes: [LANE] }, { task: { lane: "delivery" } });
    const first = await settle(h, (await dispatchTask(SYSTEM_ACTOR, s.task.id)).id);
    expect(first.run.ending).toBe("accepted");
    expect((await findTask({ id: s.task.id }))?.stage).toBe("spec");
    expect(await runsOf(s.task.id)).toHaveLength(1);
  });
});

// A lane whose second stage cannot pass: its agent writes the same output every time.
const STUCK_LANE = {
  id: "stuck",
  name: "Stuck",
  stages: [
    { id: "prep", name: "Prep", checks: [check("ok", "true")] },
    {
      id: "write",
      name: "Write",
      output: "notes.md",
      maxAttempts: 2,
      checks: [check("done", "grep -q done notes.md")],
    },
  ],
};

async function stuckAtWrite() {
  const counter = path.join(h.scratch, `agent-runs-${Date.now()}-${Math.random()}`);
  // Every attempt changes the worktree (other.txt) but never the stage's output.
  const agent = `echo working > notes.md; date +%s%N > other.txt; echo x >> ${counter}`;
  const s = await makeScenario(h, { agentCommand: agent, lanes: [STUCK_LANE] }, { task: { lane: "stuck" } });
  await settle(h, (await dispatchTask(SYSTEM_ACTOR, s.task.id)).id);
  const stuck = await settle(h, (await dispatchTask(SYSTEM_ACTOR, s.task.id)).id);
  return { s, stuck, counter };
}

describe("a stuck stage", () => {
  it("ends partial after its attempts, not re-checking an output that did not change, waiting for a decision", async () => {
    const { stuck } = await stuckAtWrite();
    expect([stuck.run.stage, stuck.run.ending, stuck.run.needsDecision]).toEqual(["write", "partial", true]);
    expect(stuck.run.maxAttempts).toBe(2);
    expect(stuck.attempts.map((a) => a.noChangeSince)).toEqual([null, 1]);
    expect(stuck.run.endingReason).toContain("all 2 attempts used");
    const card = (await readBoard(SYSTEM_ACTOR, stuck.run.workId)).lanes[0].columns[1].cards[0];
    expect([card.state, card.attempts, card.maxAttempts, card.gate]).toEqual(["stuck", 2, 2, "red"]);
  });

  it("retry: more attempts run the same stage again", async () => {
    const { stuck, counter } = await stuckAtWrite();
    const before = fs.readFileSync(counter, "utf8").length;
    await decideRun(SYSTEM_ACTOR, stuck.run.id, { choice: "more-attempts", attempts: 1 });
    const again = await settle(h, stuck.run.id);
    expect([again.run.stage, again.run.maxAttempts, again.attempts.length]).toEqual(["write", 3, 3]);
    expect(fs.readFileSync(counter, "utf8").length).toBeGreaterThan(before);
  });

  it("send back: the task returns to an earlier stage, recorded with who", async () => {
    const { s, stuck } = await stuckAtWrite();
    const lead = { ...SYSTEM_ACTOR, label: "Lee the lead", email: "lee@example.test" };
    const later = await decideRun(lead, stuck.run.id, { choice: "send-back", stage: "write" }).catch((e) => e);
    expect(later.issues).toEqual([{ path: "stage", message: "must be an earlier stage of lane stuck: one of prep" }]);
    const decided = await decideRun(lead, stuck.run.id, { choice: "send-back", stage: "prep", reason: "redo" });
    expect([decided.decision, decided.needsDecision]).toEqual(["send-back:prep", false]);
    expect(decided.endingReason).toContain("sent back to stage prep by lee@example.test: redo");
    expect((await findTask({ id: s.task.id }))?.stage).toBe("prep");
    const audit = await getDb().auditEvent.findMany({ where: { taskId: s.task.id, action: "task.stage" } });
    expect(audit.map((a) => a.summary)).toContain("moved from stage write to prep: sent back to stage prep: redo");
  });

  it("skip the stage: refused on the last stage (accept or reject it), moves the task on otherwise", async () => {
    const { stuck } = await stuckAtWrite();
    const last = await decideRun(SYSTEM_ACTOR, stuck.run.id, { choice: "skip-stage" }).catch((e) => e);
    expect(last.message).toBe("write is the last stage of lane stuck: accept the run as it stands or reject it");
    const lane = {
      ...STUCK_LANE,
      stages: [STUCK_LANE.stages[1], { id: "ship", name: "Ship", checks: [check("ok", "true")] }],
    };
    const s = await makeScenario(
      h,
      { agentCommand: "echo working > notes.md", lanes: [lane] },
      { task: { lane: "stuck" } },
    );
    const stuckFirst = await settle(h, (await dispatchTask(SYSTEM_ACTOR, s.task.id)).id);
    expect(stuckFirst.run.ending).toBe("partial");
    const skipped = await decideRun(SYSTEM_ACTOR, stuckFirst.run.id, { choice: "skip-stage", reason: "known gap" });
    expect([skipped.decision, skipped.ending]).toEqual(["skip-stage", "partial"]);
    expect(skipped.endingReason).toContain("stage write skipped by Gatehouse: known gap");
    expect((await findTask({ id: s.task.id }))?.stage).toBe("ship");
  });

  it("reject: the run ends rejected and the task stays where it stood", async () => {
    const { s, stuck } = await stuckAtWrite();
    const rejected = await decideRun(SYSTEM_ACTOR, stuck.run.id, { choice: "reject" });
    expect(rejected.ending).toBe("rejected");
    expect((await findTask({ id: s.task.id }))?.stage).toBe("write");
  });
});
