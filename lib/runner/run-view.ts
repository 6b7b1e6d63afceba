// What pages read about runs while they execute: live result rows, live log tails, the stored logs, and
// the masker for the Work's secrets. The services read these only through the executor's view, so the
// web server never reaches into a runner's memory or files itself: the local executor's view reads this
// process's runner; the queue executor's view reads what workers wrote to the database.
import fs from "node:fs";
import path from "node:path";
import { dataDir } from "../config/database-url";
import type { ResultRecord } from "../db/runs";
import { listLogChunks } from "../db/log-chunks";
import { findLiveResults } from "./attempt-results";
import { findLiveLog, liveLogKey } from "./live-logs";
import { makeSecretMasker } from "./output/secret-masker";
import { AGENT_LOG_NAME, agentLogPathOf, checkLogPathOf } from "./paths";
import { loadWorkSecrets } from "./work-secrets";

export type LiveLog = { liveTail(): string; readonly bytesSeen: number; flush(): void };

export interface RunView {
  // The rows of an attempt still running, when they are held in memory here (undefined: the database's).
  liveResults(runId: string, n: number): ResultRecord[] | undefined;
  // A log being written right now in this process (undefined: none here; its tail is in the database).
  liveLog(runId: string, n: number, name: string): LiveLog | undefined;
  // A file holding the stored log as far as it is written (it may not exist: no log yet).
  logFile(runId: string, logAttempt: number, name: string): Promise<string>;
  // Masks text as the run's output is masked (the values of the Work's secrets become ***).
  masker(workId: string): Promise<(text: string) => string>;
}

async function maskerOf(workId: string): Promise<(text: string) => string> {
  const secrets = Object.values(await loadWorkSecrets(workId).catch(() => ({})));
  if (secrets.length === 0) return (text) => text;
  const masker = makeSecretMasker(secrets);
  return (text) => masker.maskText(text);
}

function logPathOf(root: string, runId: string, n: number, name: string): string {
  return name === AGENT_LOG_NAME ? agentLogPathOf(root, runId, n) : checkLogPathOf(root, runId, n, name);
}

// The runner in this process (SQLite, one command): memory and the data dir's files.
export const localRunView: RunView = {
  liveResults: (runId, n) => findLiveResults(runId, n)?.view(),
  liveLog: (runId, n, name) => findLiveLog(liveLogKey(runId, n, name)),
  logFile: async (runId, n, name) => logPathOf(dataDir(), runId, n, name),
  masker: maskerOf,
};

// Workers anywhere (PostgreSQL): rows and tails as workers publish them to the database, logs from the
// chunks they ship, copied on demand into this server's data dir (`log-copies`) so that line pages,
// search and download read a local file whichever host wrote it.
export const databaseRunView: RunView = {
  liveResults: () => undefined,
  liveLog: () => undefined,
  logFile: (runId, n, name) => copyOfShippedLog(runId, n, name),
  masker: maskerOf,
};

const copying = new Map<string, Promise<string>>();

function copyOfShippedLog(runId: string, n: number, name: string): Promise<string> {
  const file = logPathOf(path.join(dataDir(), "log-copies"), runId, n, name);
  // One copy at a time per file: two readers appending the same chunk would double it.
  const previous = copying.get(file) ?? Promise.resolve(file);
  const next = previous
    .catch(() => file)
    .then(() => syncCopy(file, { runId, attemptN: n, name }))
    .finally(() => {
      if (copying.get(file) === next) copying.delete(file);
    });
  copying.set(file, next);
  return next;
}

async function syncCopy(file: string, key: { runId: string; attemptN: number; name: string }): Promise<string> {
  let size = fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0;
  const chunks = await listLogChunks({ ...key, from: size });
  if (chunks.length === 0) return file;
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const fd = fs.openSync(file, "a", 0o600);
  try {
    for (const chunk of chunks) {
      if (chunk.offset !== size) break;
      fs.writeSync(fd, chunk.bytes);
      size += chunk.bytes.length;
    }
  } finally {
    fs.closeSync(fd);
  }
  return file;
}
