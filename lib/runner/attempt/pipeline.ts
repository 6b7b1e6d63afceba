// One attempt as a pipeline: the agent step (when there is an agent command), then, on what the agent
// left, the steps that judge it, in order — the checks, the proof rows, the profile's layers — with the
// gate computed between steps (a step that waits for green runs only while it is green), then the gate.
// The steps share one AttemptContext (context.ts) and never import this file.
import { computeGate, countRequiredPassed, gateOfStoppedAttempt } from "../../gates/gate";
import type { Gate } from "../../gates/gate";
import { insertResults, listResults, updateAttempt, updateRun, type AttemptRecord } from "../../db/runs";
import { markFlakyResults } from "../../db/landing";
import { checkoutState, headCommit, repoDirOf, type WrittenIndex } from "../checkout/checkout";
import { removeIgnoredFiles, startTreeFacts } from "../checkout/ignored-files";
import { readEvidenceFile } from "../evidence-file";
import { stageOfRun } from "../../gates/lanes";
import { attemptFingerprint } from "./stage-fingerprint";
import { rowsFor } from "../attempt-results";
import { cloneCheckSources, removeReadOnlyTree } from "../check-sources";
import { copyAssetsForAttempt, removeAttemptFiles } from "../run-assets";
import { AttemptContext, type AttemptInput } from "./context";
import type { Step, StepResult, StepVerdict } from "./step";
import { agentNoteOf, type AgentNote } from "../../gates/agent-note";
import { agentStep } from "./steps/agent";
import { checksStep } from "./steps/checks";
import { unchangedStep } from "./steps/unchanged";
import { evidenceStep } from "./steps/evidence";
import { proofStep, rerunStep } from "./steps/proof";
import { reviewStep } from "./steps/review";
import { redTeamStep } from "./steps/red-team";
import { mutationStep } from "./steps/mutation";

// After the agent: the order the rows appear in and the gate grows through.
export const JUDGING_STEPS: readonly Step[] = [
  checksStep,
  unchangedStep,
  proofStep,
  evidenceStep,
  rerunStep,
  reviewStep,
  redTeamStep,
  mutationStep,
];

export type AttemptResult = {
  gate: Gate;
  requiredPassed: number;
  commit: string | null;
  // Set when something around the work failed (a required check errored, the agent could not start).
  inconclusiveReason: string | null;
  // What the ending's reason adds when the agent did not pass, and its caveat (lib/gates/agent-note.ts), else null.
  agentNote?: AgentNote | null;
};

export async function executeAttempt(input: AttemptInput): Promise<AttemptResult> {
  const ctx = new AttemptContext(input);
  const { run, attempt, deps } = ctx;
  ctx.makeDirs();
  // An attempt at a pushed commit has no agent step (steps/agent.ts): it starts with the checks.
  const hasAgentStep = !!run.agentCommand && !attempt.pushed;
  await updateAttempt({
    id: attempt.id,
    changes: { status: hasAgentStep ? "agent" : "checks", startedAt: new Date(), gate: "running" },
  });

  const agent = await agentStep.run(ctx);
  if (agent.inconclusive || ctx.signal.aborted) return endUnjudged(ctx, agent.inconclusive ?? null);
  // The checkout as git wrote it, when no agent has run in it since (steps/agent.ts ran nothing).
  const written = hasAgentStep ? null : (input.written ?? null);
  // After the agent step, so nothing the agent did reaches them: the Work's assets, read-only, and fresh
  // clones of the check sources at their frozen commits.
  ctx.assetsDir = await copyAssetsForAttempt({
    dataDir: deps.dataDir,
    workId: run.workId,
    runId: run.id,
    n: attempt.n,
  });
  try {
    if (run.checkSources.length === 0 || run.policy === "off") return await judgeAttempt(ctx, written);
    const cloned = await cloneCheckSources({
      dataDir: deps.dataDir,
      runId: run.id,
      n: attempt.n,
      sources: run.checkSources,
      runAs: deps.runAs,
    });
    if ("error" in cloned) {
      // Every check is still accounted for: not run, with the reason.
      await insertResults({
        attemptId: attempt.id,
        runId: run.id,
        logAttempt: attempt.n,
        results: rowsFor(run.checks, { verdict: "error", message: `not run: ${cloned.error}`, finishedAt: new Date() }),
      });
      return endUnjudged(ctx, cloned.error);
    }
    ctx.checksDir = cloned.dir;
    try {
      return await judgeAttempt(ctx, written);
    } finally {
      removeReadOnlyTree(cloned.dir);
    }
  } finally {
    await removeAttemptFiles(deps.dataDir, run.id, attempt.n);
  }
}

// Nothing was judged (the agent could not start, the run was stopped, a check source is unreachable): the
// attempt ends without a gate decided, "stopped".
async function endUnjudged(ctx: AttemptContext, inconclusiveReason: string | null): Promise<AttemptResult> {
  await updateAttempt({ id: ctx.attempt.id, changes: { status: "finished", gate: "stopped", finishedAt: new Date() } });
  return { gate: "stopped", requiredPassed: 0, commit: null, inconclusiveReason };
}

// `written`: the index git wrote as it made the checkout, nothing having run there since (or null).
async function judgeAttempt(ctx: AttemptContext, written: WrittenIndex | null): Promise<AttemptResult> {
  const { run, attempt, previous } = ctx;
  if (run.policy === "off") {
    await insertResults({
      attemptId: attempt.id,
      runId: run.id,
      logAttempt: attempt.n,
      results: rowsFor(run.checks, { verdict: "skipped", message: "policy off: checks are not run" }),
    });
    await updateAttempt({ id: attempt.id, changes: { status: "finished", gate: "off", finishedAt: new Date() } });
    await updateRun({ id: run.id, changes: { gate: "off", spentMs: run.spentMs } });
    return {
      gate: "off",
      requiredPassed: 0,
      commit: null,
      inconclusiveReason: null,
      agentNote: agentNoteOf(ctx.agentFailure, { isUnchanged: null, checksPassed: false }),
    };
  }

  const commit = await headCommit(ctx.checkoutPath).catch(() => null);
  // What git ignores is no part of the commit: the checks do not run on it (installed dependency folders and a
  // stage's output stay; the evidence is read now). When it cannot all be removed, the checkout counts as
  // unreadable: changed, and no proof row passes on it.
  ctx.evidence = readEvidenceFile(ctx.checkoutPath);
  const output = stageOfRun(run)?.stage.output;
  const facts = await startTreeFacts(repoDirOf(ctx.deps.dataDir, run.workId), run.startCommit ?? "HEAD").catch(
    () => null,
  );
  ctx.dependencyHomes = facts?.dependencyHomes ?? new Set([""]);
  // A checkout git has just written holds HEAD's files alone: nothing there is ignored, none to list.
  const isCleared =
    !!written ||
    (await removeIgnoredFiles(ctx.checkoutPath, ctx.dependencyHomes, output ? [output] : []).then(
      () => true,
      (error: Error) => {
        console.error(`gatehouse: run ${run.id}: ${error.message}`);
        return false;
      },
    ));
  // Before the checks, never beside them: git reads the checkout's config (the agent's to write) when it
  // starts, and a check running at that moment could add a filter driver after Gatehouse listed the ones
  // to switch off (git.ts), which `git status` would then run outside the sandbox.
  // Unreadable (git refused the agent's config, say) counts as changed: a run never records a clean
  // commit it could not check.
  const state = isCleared
    ? await checkoutState(ctx.checkoutPath, { submodules: facts?.submodules, keepIndex: true, written }).catch(
        () => null,
      )
    : null;
  const dirty = state?.isDirty ?? true;
  ctx.setCheckedTree(state?.tree ?? null, state?.index ?? null);

  // The agent changed nothing since the previous attempt's checks: do not run them again.
  if (attempt.trigger === "agent-loop" && previous?.treeAfter) {
    const tree = await attemptFingerprint(ctx.checkoutPath, run, state?.tree);
    if (tree && tree === previous.treeAfter) return recordNoChange(ctx, previous, commit, dirty, tree);
  }

  ctx.results.open();
  let judged: { verdicts: StepVerdict[]; inconclusive: string | null };
  try {
    judged = await runSteps(ctx, JUDGING_STEPS);
  } finally {
    await ctx.close();
    await ctx.results.close();
  }
  const { verdicts } = judged;
  // A stopped attempt's checks were cut short: red if a required one had failed by then, otherwise "stopped"
  // (a check the stop cut short is skipped, which computeGate would count as red).
  const gate = ctx.signal.aborted ? gateOfStoppedAttempt(verdicts) : computeGate(run.policy, verdicts);
  // An agent check in error (its report unreadable) is the agent's to fix, not a reason to give up on the run.
  const errored = verdicts.find(
    (v) => v.required && v.verdict === "error" && run.checks.find((c) => c.id === v.checkId)?.executor !== "agent",
  );
  const isMoreComing = !!run.agentCommand && gate === "red" && run.policy === "required" && attempt.n < run.maxAttempts;
  const treeAfter = isMoreComing ? await attemptFingerprint(ctx.checkoutPath, run) : null;
  await updateAttempt({
    id: attempt.id,
    changes: { status: "finished", gate, finishedAt: new Date(), treeAfter, commit, isDirty: dirty },
  });
  // Flaky means passed now and failed in an earlier attempt of the task: the first attempt of its first run
  // has none to compare with (two reads a run saved for every new task's run).
  if (run.number > 1 || attempt.n > 1)
    await markFlakyResults({ attemptId: attempt.id, taskId: run.taskId, commit, isDirty: dirty });
  await updateRun({ id: run.id, changes: { gate, spentMs: run.spentMs } });
  const requiredPassed = countRequiredPassed(verdicts);
  return {
    gate,
    requiredPassed,
    commit,
    agentNote: agentNoteOf(ctx.agentFailure, {
      isUnchanged: !dirty && !!commit && commit === run.startCommit,
      checksPassed: gate === "green" && requiredPassed > 0,
    }),
    inconclusiveReason:
      judged.inconclusive ??
      (errored ? couldNotRun(errored, ctx.run.checks.find((c) => c.id === errored.checkId)?.hidden === true) : null),
  };
}

// Runs the steps in order. A stopped run runs no further step; a step outside the run's profile is left
// out; a step that waits for green runs only while the gate of the verdicts so far is green and no step
// has found the run inconclusive (otherwise its `notRun`, if it has one, says so).
export async function runSteps(
  ctx: AttemptContext,
  steps: readonly Step[],
): Promise<{ verdicts: StepVerdict[]; inconclusive: string | null }> {
  const verdicts: StepVerdict[] = [];
  let inconclusive: string | null = null;
  for (const step of steps) {
    if (ctx.signal.aborted) break;
    if (!step.profiles.includes(ctx.run.profile)) continue;
    const isGreen: boolean = !inconclusive && computeGate(ctx.run.policy, verdicts) === "green";
    const result: StepResult | undefined =
      step.after === "always" || isGreen ? await step.run(ctx) : await step.notRun?.(ctx);
    if (!result) continue;
    verdicts.push(...result.verdicts);
    inconclusive ??= result.inconclusive ?? null;
  }
  return { verdicts, inconclusive };
}

async function recordNoChange(
  ctx: AttemptContext,
  previous: AttemptRecord,
  commit: string | null,
  isDirty: boolean,
  tree: string,
): Promise<AttemptResult> {
  const { run, attempt } = ctx;
  const since = previous.noChangeSince ?? previous.n;
  const earlier = await listResults({ attemptId: previous.id });
  await insertResults({
    attemptId: attempt.id,
    runId: run.id,
    logAttempt: earlier[0]?.logAttempt ?? previous.n,
    // The same rows again, as this attempt's (the stored logs stay those of logAttempt).
    results: earlier.map(({ id, attemptId, runId, position, logAttempt, ...copy }) => copy),
  });
  await updateAttempt({
    id: attempt.id,
    changes: {
      status: "finished",
      gate: previous.gate,
      finishedAt: new Date(),
      commit,
      isDirty,
      noChangeSince: since,
      treeAfter: tree,
    },
  });
  await updateRun({ id: run.id, changes: { gate: previous.gate, spentMs: run.spentMs } });
  return { gate: previous.gate, requiredPassed: countRequiredPassed(earlier), commit, inconclusiveReason: null };
}

// The run's ending reason is shown to everyone who reads the run: a held-out check's says only that it erred
// (its reason stays in its row, which leads see).
function couldNotRun(errored: { checkId: string; message?: string | null }, isHeldOut: boolean): string {
  return isHeldOut
    ? `required held-out check "${errored.checkId}" could not run (its reason is shown to leads)`
    : `required check "${errored.checkId}" could not run: ${errored.message ?? "error"}`;
}
