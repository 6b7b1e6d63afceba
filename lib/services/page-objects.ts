// Whether what a page's address names is there for the actor: its Work, task or run, and on a log page the
// attempt and the check; an admin's page and an audit trail the actor may not read are not there either. Next
// sends a page's status with its first bytes, the loading skeleton, before the page's own notFound() can run, so
// proxy.ts asks this first and answers 404 itself. The reads are the pages' own: an object is missing here
// exactly when its page (or layout) calls notFound() or draws its not-found panel itself (the audit page's
// refusals, which say more than notFound() can).
import type { Actor } from "../auth/actor";
import { findAttempt, type AttemptRecord } from "../db/runs";
import { isAppError, notFound } from "../errors";
import { attemptNumberOf } from "../gates/attempt-number";
import { isSettingsPageSection } from "../pages/settings-page-sections";
import { locateLog } from "./logs";
import { readRun } from "./runs";
import { readTask } from "./tasks";
import { readWork } from "./works";
import { auditRefusalOf } from "./audit";

// What an address names (lib/pages/page-address.ts reads it), its ids as typed.
export type PageObjects =
  | { kind: "work"; workId: string; section?: string }
  | { kind: "task"; taskId: string }
  | { kind: "run"; runId: string; attempt?: string; check?: string }
  | { kind: "admin" }
  | { kind: "audit"; workId?: string };

export type MissingObject = "work" | "task" | "run" | "attempt" | "check" | "section" | "admin page" | "audit trail";

// The first object of the address that is not there (or not the actor's to see), or null when all are.
export async function findMissingObject(actor: Actor, named: PageObjects): Promise<MissingObject | null> {
  if (named.kind === "admin") return actor.isAdmin ? null : "admin page";
  if (named.kind === "audit") return (await auditRefusalOf(actor, named.workId)) ? "audit trail" : null;
  if (named.kind === "work") {
    if (!(await isThere(readWork(actor, named.workId)))) return "work";
    return named.section === undefined || isSettingsPageSection(named.section) ? null : "section";
  }
  if (named.kind === "task") return (await isThere(readTask(actor, named.taskId))) ? null : "task";
  if (!(await isThere(readRun(actor, named.runId)))) return "run";
  if (named.attempt === undefined) return null;
  // The run was read (and its access checked) just above: the attempt alone is asked.
  if (!(await attemptNamed(named.runId, named.attempt))) return "attempt";
  if (named.check === undefined) return null;
  return (await isThere(locateLog(actor, named.runId, named.attempt, named.check))) ? null : "check";
}

// An attempt of a run whose access was checked already, its number as the address gives it ("abc" names none).
export async function attemptOfReadRun(runId: string, n: string): Promise<AttemptRecord> {
  const attempt = await attemptNamed(runId, n);
  if (!attempt) throw notFound("Attempt");
  return attempt;
}

// The attempt `n` (as the address gives it) of a run already read; null when it names none.
async function attemptNamed(runId: string, n: string): Promise<AttemptRecord | null> {
  const attemptN = attemptNumberOf(n);
  return attemptN === null ? null : findAttempt({ runId, n: attemptN });
}

// A refusal other than "not found" (a held-out check's log, say) is the page's to show.
async function isThere(read: Promise<unknown>): Promise<boolean> {
  try {
    await read;
    return true;
  } catch (error) {
    if (isAppError(error)) return error.code !== "not_found" && error.code !== "validation";
    throw error;
  }
}
