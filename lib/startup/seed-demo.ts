// On an empty database: the demo Work, made from files the project ships (demo/): a small project with
// a failing test, a task to fix it, and a scripted agent that fixes it on its second attempt. Its first
// run is dispatched at once, so a newcomer's first page shows a real run: attempt 1 red, attempt 2 green.
// The Work keeps the default proof settings: attempt 1 adds no test (reported, as requireTests is warn),
// attempt 2 adds one, and its green is proven by every proof row.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { SYSTEM_ACTOR } from "../auth/actor";
import { dataDir } from "../config/database-url";
import { countWorks } from "../db/works";
import type { Check } from "../gates/check-schema";
import { dispatchTask } from "../services/runs";
import { createTask } from "../services/tasks";
import { createWork } from "../services/works";
import { gitHomeOf, gitInvocation } from "../runner/checkout/git";
import { giveTreeTo, runAsFromEnv } from "../runner/run-as";
import { ensureAgentHome } from "../runner/sandbox/command-files";

const DEMO_AGENT = "gatehouse-demo-agent.sh";
const STAGES_AGENT = "gatehouse-stages-demo-agent.sh";

const DEMO_CHECKS: Check[] = [
  // provesChange: the proof row "The checks fail without the change" runs it at the start commit too.
  {
    id: "unit",
    name: "Unit tests pass",
    kind: "test",
    command: "node --test test/",
    required: true,
    timeoutSec: 120,
    provesChange: true,
  },
  {
    id: "syntax",
    name: "Every source file parses",
    kind: "lint",
    command: 'for f in src/*.js; do node --check "$f"; done',
    required: true,
    timeoutSec: 60,
  },
  {
    id: "no-todo",
    name: "No TODO left in src",
    kind: "custom",
    command: 'grep -rn "TODO" src',
    required: false,
    expectExit: 1,
    timeoutSec: 30,
  },
];

function demoSourceDir(): string {
  return path.join(process.cwd(), "demo");
}

// Builds the demo repository (a git repo with one commit on main) in the data dir.
function buildDemoRepo(target: string): void {
  fs.rmSync(target, { recursive: true, force: true });
  fs.cpSync(path.join(demoSourceDir(), "repo"), target, { recursive: true });
  // The platform's git: a fixed environment (none of the server's secrets) and no program from config.
  const identity = {
    GIT_AUTHOR_NAME: "Gatehouse demo",
    GIT_AUTHOR_EMAIL: "demo@gatehouse.invalid",
    GIT_COMMITTER_NAME: "Gatehouse demo",
    GIT_COMMITTER_EMAIL: "demo@gatehouse.invalid",
  };
  const git = (...args: string[]) => {
    const call = gitInvocation(args, { env: identity, home: gitHomeOf(dataDir()) });
    execFileSync(call.file, call.args, { cwd: target, env: call.env as NodeJS.ProcessEnv, stdio: "ignore" });
  };
  git("init", "--quiet", "--initial-branch=main");
  // The demo repository has main checked out: let a merged task's push update it (git refuses by default,
  // and the newcomer's first Merge would fail).
  git("config", "receive.denyCurrentBranch", "updateInstead");
  git("add", "-A");
  git("commit", "--quiet", "-m", "slugify: a first stub and its tests");
  // Merge pushes into it as the user Gatehouse's git runs as (as root, the sandbox's user): theirs to write,
  // or the newcomer's first Merge fails with "unable to create temporary object directory".
  giveTreeTo(target, runAsFromEnv());
}

export async function seedDemoIfEmpty(): Promise<{ taskId: string; runId: string } | null> {
  if ((await countWorks()) > 0) return null;
  const demoDir = path.join(dataDir(), "demo");
  const repo = path.join(demoDir, "repo");
  buildDemoRepo(repo);
  const work = await createWork(SYSTEM_ACTOR, {
    name: "Gatehouse demo",
    repoUrl: repo,
    baseBranch: "main",
    checkDefaults: DEMO_CHECKS,
    checksPolicy: "required",
    maxGateAttempts: 3,
    // Installed in the agent's HOME, as an agent CLI would be: the sandbox shows the agent nothing else of
    // the data dir (nor Gatehouse's install folder, where demo/agent.sh ships).
    agentCommand: `bash "$HOME/${DEMO_AGENT}"`,
  });
  const agent = path.join(ensureAgentHome(dataDir(), work.id, runAsFromEnv()), DEMO_AGENT);
  fs.copyFileSync(path.join(demoSourceDir(), "agent.sh"), agent);
  fs.chmodSync(agent, 0o755);
  const task = await createTask(SYSTEM_ACTOR, work.id, {
    title: "Make slugify produce URL slugs",
    description:
      'slugify() returns titles unchanged. Make it lower-case the title, join words with "-", drop ' +
      "punctuation and trim dashes at both ends, so that `node --test test/` passes and " +
      "no TODO is left in src/.",
  });
  const run = await dispatchTask(SYSTEM_ACTOR, task.id);
  console.log(`gatehouse: created the demo Work with ${task.key} and dispatched its first run`);
  await seedStagesDemo(path.join(demoDir, "stages-repo"));
  return { taskId: task.id, runId: run.id };
}

// The second demo Work (issue 26): the same project on a lane research → build. Its scripted agent's
// research cites one source on attempt 1 (the stage wants two) and two on attempt 2; build is the slugify
// fix. autoAdvance dispatches build as soon as research is green, so the task ends accepted with both
// stages done on its stepper.
async function seedStagesDemo(repo: string): Promise<void> {
  buildDemoRepo(repo);
  const work = await createWork(SYSTEM_ACTOR, {
    name: "Stages demo",
    repoUrl: repo,
    baseBranch: "main",
    profile: "lite",
    autoAdvance: true,
    agentCommand: `bash "$HOME/${STAGES_AGENT}"`,
    lanes: [
      {
        id: "delivery",
        name: "Delivery",
        stages: [
          {
            id: "research",
            name: "Research",
            output: "docs/research.md",
            skill: "Cite your sources, one `- source: <url> — <note>` line each, and end with a `verdict:` line.",
            checks: [
              {
                id: "sources",
                name: "A verdict and two sources",
                kind: "custom",
                required: true,
                use: "research",
                with: { path: "docs/research.md", sources: 2 },
              },
            ],
          },
          { id: "build", name: "Build", checks: DEMO_CHECKS },
        ],
      },
    ],
  });
  const agent = path.join(ensureAgentHome(dataDir(), work.id, runAsFromEnv()), STAGES_AGENT);
  fs.copyFileSync(path.join(demoSourceDir(), "stage-agent.sh"), agent);
  fs.chmodSync(agent, 0o755);
  const task = await createTask(SYSTEM_ACTOR, work.id, {
    title: "Research URL slugs, then make slugify produce them",
    description: "Research what a URL slug is (two sources), then make `node --test test/` pass.",
    lane: "delivery",
  });
  await dispatchTask(SYSTEM_ACTOR, task.id);
  console.log(`gatehouse: created the stages demo Work with ${task.key} and dispatched its research stage`);
}
