// What reading a large checkout after the checks costs (`_unchanged`, issue 27 item 2): the checkout's
// fingerprint from the index Gatehouse kept before the checks (git reads again only the files whose details
// changed, and those changed in the index's own second) against the same fingerprint from HEAD's tree (git
// reads every file), on a checkout of many files where the checks changed one. Interleaved, medians.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  checkoutFingerprint,
  checkoutFingerprintSince,
  checkoutState,
  prepareCheckout,
} from "../../lib/runner/checkout/checkout";
import { removeUsersTree } from "../../lib/runner/checkout/task-repo";
import { commitFiles, gitIn } from "../../lib/testing/git-repo";
import { configureRuntime, defaultRunnerDeps } from "../../lib/runner/runtime";
import { createTestDb } from "../../lib/testing/test-db";
import { BENCH_DATA_PARENT, type BenchRow, median } from "./runner-bench";

// A bench's data dir (readied for the run-as user, as a server readies its own) and a Work's repository of
// `files` files in 100 folders, one commit; both removed by `cleanup`.
async function openManyFiles(files: number, name: string) {
  const t = await createTestDb({ parentDir: BENCH_DATA_PARENT });
  configureRuntime({ ...defaultRunnerDeps(), dataDir: t.dataDir });
  // The Work's repository outside the install folder (Gatehouse refuses a local one inside it).
  const origin = fs.mkdtempSync(path.join(os.tmpdir(), `gatehouse-${name}-`));
  const cleanup = async () => {
    fs.rmSync(origin, { recursive: true, force: true, maxRetries: 5 });
    await t.cleanup();
  };
  try {
    // Readable by every user: the checkout is made from it as for a Work (by the run-as user when there is one).
    fs.chmodSync(origin, 0o755);
    gitIn(origin, "init", "--quiet", "--initial-branch=main");
    // No gc in the background (it detaches) while the folder is removed at the end.
    gitIn(origin, "config", "gc.auto", "0");
    const tree: Record<string, string> = {};
    for (let i = 0; i < files; i++)
      tree[`src/m${i % 100}/f${i}.js`] = `module.exports = ${i};\n${"// line\n".repeat(20)}`;
    commitFiles(origin, tree, "many files");
    return { dataDir: t.dataDir, origin, tree, cleanup };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

export async function benchFingerprint(files: number, rounds: number): Promise<BenchRow> {
  const { dataDir, origin, tree, cleanup } = await openManyFiles(files, "fingerprint");
  try {
    const checkout = await prepareCheckout({
      dataDir,
      work: { id: "fingerprint", repoUrl: origin, baseBranch: "main" },
      task: { id: "fingerprint-task", branch: "gatehouse/fingerprint" },
    });
    const dir = checkout.path;
    // Files written a minute ago, as in a checkout the agent has worked in for a while; the index is written
    // in a later second than their change times, so its own second marks none of them.
    const past = new Date(Date.now() - 60_000);
    for (const file of Object.keys(tree)) fs.utimesSync(path.join(dir, file), past, past);
    const second = Math.floor(Date.now() / 1000);
    while (Math.floor(Date.now() / 1000) === second) await new Promise((r) => setTimeout(r, 10));
    const state = await checkoutState(dir, { keepIndex: true });
    if (!state.index) throw new Error("the checkout's index was not kept (too large?)");
    const changed = path.join(dir, "src/m7/f7.js");
    fs.appendFileSync(changed, "// a check wrote this\n");
    const expected = await checkoutFingerprint(dir);
    if (expected === state.tree) throw new Error("the change was not seen");
    const since: number[] = [];
    const fromHead: number[] = [];
    for (let i = 0; i < rounds; i++) {
      let started = performance.now();
      if ((await checkoutFingerprintSince(dir, state.index)) !== expected) throw new Error("fingerprints differ");
      since.push(performance.now() - started);
      started = performance.now();
      await checkoutFingerprint(dir);
      fromHead.push(performance.now() - started);
    }
    const s = median(since);
    const b = median(fromHead);
    return {
      name:
        `the checkout read again after the checks, ${files.toLocaleString("en")} files, one changed: ` +
        "from the index kept before them vs from HEAD's tree",
      subjectMs: s,
      baselineMs: b,
      ratio: s / b,
      extra: `index kept ${(state.index.bytes.length / 1024 / 1024).toFixed(1)} MB; ${rounds} rounds each`,
    };
  } finally {
    await cleanup();
  }
}

// New checkouts of one Work asked for together (a lead dispatching several tasks at once, a worker's slots
// filling), against the same checkouts made one after the other: the clone's part of each is one at a time
// (its lock), writing the files is side by side (task-repo.ts stageTaskRepository). Interleaved, medians; each
// round's checkouts are new tasks, removed after the round (not timed).
export async function benchCheckoutsTogether(files: number, count: number, rounds: number): Promise<BenchRow> {
  const { dataDir, origin, cleanup } = await openManyFiles(files, "checkouts");
  try {
    const work = { id: "checkouts", repoUrl: origin, baseBranch: "main" };
    let made = 0;
    const prepare = () => {
      const id = `task-${made++}`;
      return prepareCheckout({ dataDir, work, task: { id, branch: `gatehouse/${id}` } });
    };
    // The clone and its kept pack, as a Work run before has them.
    await prepare();
    const together: number[] = [];
    const inTurn: number[] = [];
    for (let i = 0; i < rounds; i++) {
      let started = performance.now();
      const paths = (await Promise.all(Array.from({ length: count }, prepare))).map((c) => c.path);
      together.push(performance.now() - started);
      started = performance.now();
      for (let n = 0; n < count; n++) paths.push((await prepare()).path);
      inTurn.push(performance.now() - started);
      for (const p of paths) await removeUsersTree(p);
    }
    const s = median(together);
    const b = median(inTurn);
    return {
      name:
        `${count} new checkouts of one Work, ${files.toLocaleString("en")} files: asked for together vs ` +
        "one after the other",
      subjectMs: s,
      baselineMs: b,
      ratio: s / b,
      extra: `${rounds} rounds each; one alone ${(b / count).toFixed(0)} ms`,
    };
  } finally {
    await cleanup();
  }
}
