// Reads a page's parts share within one request: the layouts, the page and its title (generateMetadata) ask
// for the same Work or run, and React's request cache answers all but the first from memory.
import { cache } from "react";
import { getPageActor } from "../auth/page-actor";
import { readRunAccess } from "../services/run-detail";
import { attemptOfReadRun } from "../services/page-objects";
import { readWork } from "../services/works";

export const readPageWork = cache(async (workId: string) => readWork(await getPageActor(), workId));

// The run (its access checked once) and whether the reader sees its held-out checks.
export const readPageRun = cache(async (runId: string) => readRunAccess(await getPageActor(), runId));

export const readPageAttempt = cache(async (runId: string, n: string) => {
  await readPageRun(runId);
  return attemptOfReadRun(runId, n);
});
