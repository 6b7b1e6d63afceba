// Where one run's time goes: dispatches N new tasks one after another (SQLite, the local executor) and
// prints every process Gatehouse started for them with its time, summed by program.
import { SYSTEM_ACTOR } from "../../lib/auth/actor";
import { findRun } from "../../lib/db/runs";
import { configureRuntime, defaultRunnerDeps } from "../../lib/runner/runtime";
import { launch } from "../../lib/runner/process/spawner";
import { dispatchTask } from "../../lib/services/runs";
import { createTask } from "../../lib/services/tasks";
import { createWork } from "../../lib/services/works";
import { makeGitRepo } from "../../lib/testing/git-repo";
import { createTestDb } from "../../lib/testing/test-db";

async function main() {
  const n = Number(process.argv[2] ?? 10);
  const t = await createTestDb();
  const { executor } = configureRuntime({ ...defaultRunnerDeps(), dataDir: t.dataDir });
  const repo = makeGitRepo({ "README.md": "x\n" });
  const work = await createWork(SYSTEM_ACTOR, {
    name: "Phases",
    repoUrl: repo.dir,
    baseBranch: "main",
    requireTests: "off",
    vacuousPolicy: "off",
    protectedPaths: [],
    checkDefaults: [{ id: "t", name: "true", kind: "custom", command: "true", required: true }],
  });
  await launch({ file: "true", args: [], cwd: "/", env: {}, stdinPath: null, outPath: "/dev/null" });
  const holder = globalThis as unknown as { __gatehouseSpawner: { launch: typeof launch } };
  const s = holder.__gatehouseSpawner;
  const orig = s.launch.bind(s);
  const byProgram = new Map<string, { count: number; ms: number }>();
  s.launch = async (req) => {
    const started = performance.now();
    const l = await orig(req);
    if ("error" in l) return l;
    void l.exited.then(() => {
      const key =
        req.file === "git"
          ? `git ${req.args
              .filter((a) => !a.startsWith("-") && !a.includes("=") && !a.startsWith("/"))
              .slice(0, 2)
              .join(" ")}`
          : req.file.split("/").pop()!;
      if (process.env.SHOW_ARGS)
        console.log(`${(performance.now() - started).toFixed(1)} ms ${req.file} ${req.args.join(" ").slice(0, 150)}`);
      const e = byProgram.get(key) ?? { count: 0, ms: 0 };
      e.count++;
      e.ms += performance.now() - started;
      byProgram.set(key, e);
    });
    return l;
  };
  const walls: number[] = [];
  for (let i = 0; i < n; i++) {
    const task = await createTask(SYSTEM_ACTOR, work.id, { title: `p ${i}`, description: "" });
    const started = performance.now();
    const run = await dispatchTask(SYSTEM_ACTOR, task.id);
    const dispatched = performance.now() - started;
    await executor.whenSettled(run.id);
    walls.push(performance.now() - started);
    const r = await findRun({ id: run.id });
    if (i === 0) console.log(`first: ${r?.ending}, dispatch ${dispatched.toFixed(0)} ms`);
  }
  walls.sort((a, b) => a - b);
  console.log(
    `per run: median ${walls[Math.floor(n / 2)].toFixed(0)} ms ` +
      `(load ${(await import("node:os")).loadavg()[0].toFixed(1)})`,
  );
  for (const [k, v] of [...byProgram].sort((a, b) => b[1].ms - a[1].ms))
    console.log(`  ${k.padEnd(28)} ${String(v.count / n).padStart(5)} per run  ${(v.ms / n).toFixed(1)} ms per run`);
  repo.cleanup();
  await t.cleanup();
  process.exit(0);
}
void main();
