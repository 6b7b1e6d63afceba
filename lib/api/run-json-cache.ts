// GET /api/runs/:id for many live viewers: the run's JSON is built once and shared by every reader who
// sees it the same way (held-out checks shown or withheld: one entry each), not rebuilt per poll. An
// entry holds while nothing was written through this process's database client since it was built
// (lib/db/client.ts), and for at most FRESH_MS (plus one rebuild, answered from the old entry
// meanwhile), which bounds what writes of other processes (workers publishing rows and tails) may wait.
// Within FRESH_MS, and while an older entry's rebuild is under way, a poll costs the reader's role on the
// run's Work and no read of the run; otherwise the run row is read again and an entry whose row changed
// is rebuilt before it answers. Readers of an
// entry being built wait for it.
import { createHash } from "node:crypto";
import type { Actor } from "../auth/actor";
import { writeGeneration } from "../db/client";
import type { RunRecord } from "../db/runs";
import { buildRunDetail, readRunAccess, seesHiddenOf } from "../services/run-detail";
import { presentRun } from "./present-run";

const FRESH_MS = 1000;
const MAX_ENTRIES = 200;

export type RunJsonText = { text: string; etag: string };
type Entry = {
  json: Promise<RunJsonText>;
  stamp: string;
  generation: number;
  builtAt: number;
  done?: boolean;
  refreshing?: boolean;
};

const holder = globalThis as unknown as {
  __gatehouseRunJson?: Map<string, Entry>;
  __gatehouseRunWork?: Map<string, string>;
};
holder.__gatehouseRunJson ??= new Map();
holder.__gatehouseRunWork ??= new Map();
const entries = holder.__gatehouseRunJson;
// The Work of each run with an entry (a run never moves to another Work): what a poll's access check needs.
const workOfRun = holder.__gatehouseRunWork;
const keyOf = (runId: string, seesHidden: boolean) => `${runId}:${seesHidden ? "sees-hidden" : "withheld"}`;

export function etagOf(text: string): string {
  return `"${createHash("sha1").update(text).digest("base64url")}"`;
}

export async function runJsonFor(actor: Actor, runId: string): Promise<RunJsonText> {
  const workId = workOfRun.get(runId);
  if (workId !== undefined) {
    // The same access check as reading the run (its role lookup), without the run row.
    const seesHidden = await seesHiddenOf(actor, workId);
    const held = entries.get(keyOf(runId, seesHidden));
    // Fresh, or older with its rebuild under way (answered from it meanwhile, as below): no read of the run.
    if (held && held.generation === writeGeneration() && (Date.now() - held.builtAt < FRESH_MS || held.refreshing))
      return held.json;
  }
  const { run, seesHidden } = await readRunAccess(actor, runId);
  const key = keyOf(run.id, seesHidden);
  const stamp = stampOf(run);
  const now = Date.now();
  const held = entries.get(key);
  if (held && held.stamp === stamp && held.generation === writeGeneration()) {
    if (now - held.builtAt < FRESH_MS) return held.json;
    // Only time passed (nothing this process knows of changed): answered from the entry while one
    // rebuild runs, so viewers do not queue behind it; it replaces the entry when done.
    if (held.done) {
      if (!held.refreshing) {
        held.refreshing = true;
        const next: Entry = { json: build(run, seesHidden), stamp, generation: writeGeneration(), builtAt: now };
        next.json.then(
          () => {
            next.done = true;
            if (entries.get(key) === held) entries.set(key, next);
          },
          () => {
            held.refreshing = false;
          },
        );
      }
      return held.json;
    }
  }
  const entry: Entry = { json: build(run, seesHidden), stamp, generation: writeGeneration(), builtAt: now };
  entries.delete(key);
  entries.set(key, entry);
  if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  workOfRun.delete(run.id);
  workOfRun.set(run.id, run.workId);
  if (workOfRun.size > MAX_ENTRIES) workOfRun.delete(workOfRun.keys().next().value!);
  // A failed build is not kept: the next reader tries again.
  entry.json.then(
    () => {
      entry.done = true;
    },
    () => {
      if (entries.get(key) === entry) entries.delete(key);
    },
  );
  return entry.json;
}

async function build(run: RunRecord, seesHidden: boolean): Promise<RunJsonText> {
  const text = JSON.stringify(presentRun(await buildRunDetail(run, seesHidden)));
  return { text, etag: etagOf(text) };
}

// The run row as read (every column it has but updatedAt): any change to it is a new entry.
const stampOf = (run: RunRecord) => JSON.stringify(run);
