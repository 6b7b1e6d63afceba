// Landing a task, end to end with real repositories: a bare remote, the Work's clone, the task's worktree,
// runs that really ran. Every refusal leaves the remote's base branch and the task as they were.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "../auth/actor";
import { isAppError, type AppError } from "../errors";
import { listAuditEvents } from "../db/audit";
import { findTask } from "../db/tasks";
import { commitFiles, gitIn, makeBareRepo, pushToRemote, type TestRepo } from "../testing/git-repo";
import { check, createHarness, dispatchAndSettle, makeScenario, type Harness } from "../testing/runner-harness";
import { decideRun } from "./runs";
import { createTask } from "./tasks";
import { mergeTask, readMergeState } from "./merge";
import { findWork } from "../db/works";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.cleanup());

async function refusalOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!isAppError(error)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

const remoteHead = (remote: TestRepo, branch = "main") => gitIn(remote.dir, "rev-parse", `refs/heads/${branch}`);
const remoteFile = (remote: TestRepo, file: string) => gitIn(remote.dir, "show", `main:${file}`);

// An agent that commits one file on the task branch; the check wants it there.
const committing = (file: string, content = file) =>
  `printf '%s\\n' '${content}' > ${file} && git add -A && git commit -qm 'add ${file}'`;

async function acceptedTask(
  remote: TestRepo,
  file: string,
  work: Record<string, unknown> = {},
  content = file,
): Promise<Awaited<ReturnType<typeof makeScenario>>> {
  const s = await makeScenario(
    h,
    { checkDefaults: [check("has-file", `test -f ${file}`)], agentCommand: committing(file, content), ...work },
    { repo: remote },
  );
  const detail = await dispatchAndSettle(h, s.task.id);
  expect(detail.run.ending, detail.run.endingReason ?? "").toBe("accepted");
  return s;
}

describe("merge", () => {
  it("merges an accepted task's branch into the base branch, pushes it, and records and audits it", async () => {
    const remote = makeBareRepo();
    const before = remoteHead(remote);
    const s = await acceptedTask(remote, "feature.txt");
    const head = gitIn(s.worktree, "rev-parse", "HEAD");

    const merged = await mergeTask(SYSTEM_ACTOR, s.task.id);
    expect(merged.base).toBe("main");
    expect(remoteHead(remote)).toBe(merged.commit);
    // A merge commit: the old base, then the task's head.
    expect(gitIn(remote.dir, "log", "-1", "--format=%P", merged.commit).split(" ")).toEqual([before, head]);
    expect(remoteFile(remote, "feature.txt")).toBe("feature.txt");
    const task = await findTask({ id: s.task.id });
    expect(task).toMatchObject({ mergedCommit: merged.commit, mergedBy: "Gatehouse", autoMergeError: null });
    expect(task?.mergedAt).toBeInstanceOf(Date);
    const audit = await listAuditEvents({ workId: s.work.id, take: 10 });
    expect(audit.map((a) => a.action)).toContain("task.merge");

    // Merging again: nothing to merge, refused, the remote unchanged.
    const again = await refusalOf(mergeTask(SYSTEM_ACTOR, s.task.id));
    expect(again.status).toBe(409);
    expect(again.message).toMatch(/nothing to merge/);
    expect(remoteHead(remote)).toBe(merged.commit);
  });

  it("records the branch's head it merged, and the page offers Merge again only once the branch moves \
past it", async () => {
    const s = await acceptedTask(makeBareRepo(), "feature.txt");
    const head = gitIn(s.worktree, "rev-parse", "HEAD");
    const work = await findWork({ id: s.work.id });
    if (!work) throw new Error("no Work");
    const stateOf = async () => {
      const task = await findTask({ id: s.task.id });
      if (!task) throw new Error("no task");
      return readMergeState(task, work);
    };
    expect(await stateOf()).toEqual({ refusedInAdvance: null, isMergedAtHead: false });

    await mergeTask(SYSTEM_ACTOR, s.task.id);
    expect((await findTask({ id: s.task.id }))?.mergedHead).toBe(head);
    expect((await stateOf()).isMergedAtHead).toBe(true);

    // A commit on the task branch after the merge: something to merge again (once a run accepts it).
    gitIn(s.worktree, "commit", "--allow-empty", "-qm", "after the merge");
    expect(await stateOf()).toEqual({
      refusedInAdvance: expect.stringMatching(/^the branch moved since run #1/),
      isMergedAtHead: false,
    });
  });

  it("squash makes one commit on the base branch; fast-forward moves the base to the task's head", async () => {
    const remote = makeBareRepo();
    const before = remoteHead(remote);
    const squashed = await acceptedTask(remote, "a.txt", { mergePolicy: { method: "squash" } });
    const ff = await acceptedTask(remote, "b.txt", { mergePolicy: { method: "fast-forward" } });
    const merged = await mergeTask(SYSTEM_ACTOR, squashed.task.id);
    expect(gitIn(remote.dir, "log", "-1", "--format=%P", merged.commit)).toBe(before);
    expect(gitIn(remote.dir, "log", "-1", "--format=%s", merged.commit)).toBe(`${squashed.task.key}: Make it pass`);
    // b's branch started before the squash landed: it cannot be fast-forwarded.
    const refused = await refusalOf(mergeTask(SYSTEM_ACTOR, ff.task.id));
    expect(refused.message).toMatch(/cannot fast-forward/);
    expect(refused.details?.refusal).toBe("not-fast-forward");
    expect(remoteHead(remote)).toBe(merged.commit);
    const ff2 = await acceptedTask(makeBareRepo(), "c.txt", { mergePolicy: { method: "fast-forward" } });
    const landed = await mergeTask(SYSTEM_ACTOR, ff2.task.id);
    expect(landed.commit).toBe(gitIn(ff2.worktree, "rev-parse", "HEAD"));
    expect(remoteHead(ff2.repo)).toBe(landed.commit);
  });

  it('refuses "the branch moved since run #n" when a commit came after the accepted run', async () => {
    const remote = makeBareRepo();
    const s = await acceptedTask(remote, "feature.txt");
    commitFiles(s.worktree, { "later.txt": "not checked\n" }, "a commit after the run");
    const refused = await refusalOf(mergeTask(SYSTEM_ACTOR, s.task.id));
    expect(refused.status).toBe(409);
    expect(refused.message).toMatch(/^the branch moved since run #1/);
    expect(remoteHead(remote)).toBe(remote.head);
    expect((await findTask({ id: s.task.id }))?.mergedCommit).toBeNull();
    const audit = await listAuditEvents({ workId: s.work.id, take: 10 });
    expect(audit.find((a) => a.action === "task.merge.refused")?.summary).toMatch(/branch moved/);
  });

  it("refuses without an accepted run, and when the accepted gate is not green (requireGreenGate)", async () => {
    const remote = makeBareRepo();
    const never = await makeScenario(h, { checkDefaults: [check("ok", "true")] }, { repo: remote });
    // Not even a branch yet.
    expect((await refusalOf(mergeTask(SYSTEM_ACTOR, never.task.id))).message).toMatch(/does not exist/);
    await dispatchAndSettle(h, never.task.id);
    commitFiles(never.worktree, { "x.txt": "x\n" });
    expect((await refusalOf(mergeTask(SYSTEM_ACTOR, never.task.id))).message).toMatch(/branch moved since run #1/);

    // policy warn: accepted with a red gate.
    const red = await makeScenario(
      h,
      { checkDefaults: [check("fails", "false")], checksPolicy: "warn", agentCommand: committing("r.txt") },
      { repo: remote },
    );
    const run = await dispatchAndSettle(h, red.task.id);
    expect(run.run).toMatchObject({ ending: "accepted", gate: "red" });
    expect((await refusalOf(mergeTask(SYSTEM_ACTOR, red.task.id))).message).toMatch(/gate of run #1 is red, not green/);

    // A partial run accepted as it stands by a lead: accepted, still not green.
    const partial = await makeScenario(
      h,
      { checkDefaults: [check("fails", "false")], maxGateAttempts: 1, agentCommand: committing("p.txt") },
      { repo: remote },
    );
    const p = await dispatchAndSettle(h, partial.task.id);
    await decideRun(SYSTEM_ACTOR, p.run.id, { choice: "accept" });
    expect((await refusalOf(mergeTask(SYSTEM_ACTOR, partial.task.id))).message).toMatch(/not green/);

    // Without requireGreenGate the same branch merges.
    const loose = await makeScenario(
      h,
      {
        checkDefaults: [check("fails", "false")],
        checksPolicy: "warn",
        agentCommand: committing("l.txt"),
        mergePolicy: { requireGreenGate: false },
      },
      { repo: remote },
    );
    await dispatchAndSettle(h, loose.task.id);
    const merged = await mergeTask(SYSTEM_ACTOR, loose.task.id);
    expect(remoteHead(remote)).toBe(merged.commit);
    expect(remote.head).not.toBe(merged.commit);
  });

  it("refuses a conflict with the conflicting files and pushes nothing", async () => {
    const remote = makeBareRepo({ "README.md": "one\n", "other.md": "x\n" });
    const s = await acceptedTask(remote, "README.md", {}, "the task line");
    const theirs = pushToRemote(remote.dir, "main", { "README.md": "someone else's line\n" });
    const refused = await refusalOf(mergeTask(SYSTEM_ACTOR, s.task.id));
    expect(refused.status).toBe(409);
    expect(refused.details).toMatchObject({ refusal: "conflict", conflicts: ["README.md"] });
    expect(refused.message).toMatch(/conflicts in 1 file: README.md; nothing was pushed/);
    expect(remoteHead(remote)).toBe(theirs);
    expect((await findTask({ id: s.task.id }))?.mergedCommit).toBeNull();
  });

  it("a base branch the remote protects (its hook refuses the push): a clear error, nothing half-done", async () => {
    const remote = makeBareRepo(undefined, {
      preReceive: "#!/bin/sh\necho 'main is protected: merge through a pull request' >&2\nexit 1\n",
    });
    const s = await acceptedTask(remote, "feature.txt");
    const refused = await refusalOf(mergeTask(SYSTEM_ACTOR, s.task.id));
    expect(refused.status).toBe(409);
    expect(refused.details?.refusal).toBe("push-refused");
    expect(refused.message).toMatch(/refused the push to "main": .*main is protected/);
    expect(refused.message).toMatch(/nothing was merged$/);
    expect(remoteHead(remote)).toBe(remote.head);
    expect(await findTask({ id: s.task.id })).toMatchObject({ mergedCommit: null, mergedAt: null });
  });
});

describe("concurrent merges into one base branch", () => {
  it("two tasks of one Work merged at once both land (merges of a Work are serialised)", async () => {
    const remote = makeBareRepo();
    const agent =
      'echo "$GATEHOUSE_RUN_ID" > "run-$GATEHOUSE_RUN_ID.txt" && git add -A && git commit -qm "a file of its own"';
    const a = await makeScenario(
      h,
      { checkDefaults: [check("has-file", "ls run-*.txt")], agentCommand: agent },
      { repo: remote },
    );
    const b = await createTask(SYSTEM_ACTOR, a.work.id, { title: "the other task" });
    const runs = [await dispatchAndSettle(h, a.task.id), await dispatchAndSettle(h, b.id)];
    for (const r of runs) expect(r.run.ending).toBe("accepted");
    const merged = await Promise.all([mergeTask(SYSTEM_ACTOR, a.task.id), mergeTask(SYSTEM_ACTOR, b.id)]);
    const history = gitIn(remote.dir, "rev-list", "main").split("\n");
    for (const m of merged) expect(history).toContain(m.commit);
    expect(merged.map((m) => m.commit)).toContain(remoteHead(remote));
    for (const r of runs) expect(remoteFile(remote, `run-${r.run.id}.txt`)).toBe(r.run.id);
  });

  it("two servers (two Works on one repository, no shared lock) racing: every merge reported lands, \
the rest are refused cleanly", async () => {
    const remote = makeBareRepo();
    const tasks = [];
    for (const file of ["r1.txt", "r2.txt", "r3.txt", "r4.txt"]) tasks.push(await acceptedTask(remote, file));
    const outcomes = await Promise.allSettled(tasks.map((t) => mergeTask(SYSTEM_ACTOR, t.task.id)));
    const history = gitIn(remote.dir, "rev-list", "main").split("\n");
    let landed = 0;
    for (const [i, outcome] of outcomes.entries()) {
      if (outcome.status === "fulfilled") {
        landed++;
        // Never a lost commit: what was reported merged is on the remote's base branch.
        expect(history).toContain(outcome.value.commit);
        expect(remoteFile(remote, `r${i + 1}.txt`)).toBe(`r${i + 1}.txt`);
        expect((await findTask({ id: tasks[i].task.id }))?.mergedCommit).toBe(outcome.value.commit);
      } else {
        const error = outcome.reason as AppError;
        expect(error.message).toMatch(/the base branch "main" moved while merging; retry \(nothing was pushed\)/);
        expect((await findTask({ id: tasks[i].task.id }))?.mergedCommit).toBeNull();
        expect(() => remoteFile(remote, `r${i + 1}.txt`)).toThrow();
      }
    }
    expect(landed).toBeGreaterThanOrEqual(1);
    // The refused ones land when retried.
    for (const [i, outcome] of outcomes.entries())
      if (outcome.status === "rejected") await mergeTask(SYSTEM_ACTOR, tasks[i].task.id);
    for (const i of [1, 2, 3, 4]) expect(remoteFile(remote, `r${i}.txt`)).toBe(`r${i}.txt`);
  });
});

describe("autoMerge", () => {
  it("merges when a run ends accepted; a failure shows on the task and leaves the run accepted", async () => {
    const remote = makeBareRepo({ "README.md": "one\n" });
    const s = await acceptedTask(remote, "auto.txt", { mergePolicy: { autoMerge: true } });
    const task = await findTask({ id: s.task.id });
    expect(task?.mergedCommit).toBe(remoteHead(remote));
    expect(task?.mergedBy).toBe("auto-merge after run #1");

    // The first run (red) makes the worktree from main as it is; then someone changes main; the second
    // run is accepted and its auto-merge conflicts.
    const flag = path.join(h.scratch, "auto-merge-gate-open");
    const failing = await makeScenario(
      h,
      {
        checkDefaults: [check("gate-open", `test -f ${flag}`)],
        maxGateAttempts: 1,
        agentCommand: `${committing("README.md", "mine")} || true`,
        mergePolicy: { autoMerge: true },
      },
      { repo: remote },
    );
    expect((await dispatchAndSettle(h, failing.task.id)).run.ending).toBe("partial");
    pushToRemote(remote.dir, "main", { "README.md": "theirs\n" });
    fs.writeFileSync(flag, "");
    const run = await dispatchAndSettle(h, failing.task.id);
    expect(run.run.ending).toBe("accepted");
    const after = await findTask({ id: failing.task.id });
    expect(after?.mergedCommit).toBeNull();
    expect(after?.autoMergeError).toMatch(/^auto-merge after run #2: merging .* conflicts in 1 file: README.md/);
  });
});
