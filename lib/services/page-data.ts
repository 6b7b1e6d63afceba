// What pages read beyond single objects: lists with their latest runs and counts.
import type { Actor } from "../auth/actor";
import { countTasksOfWorks, latestRunsOfTasks, listRunsOfTask, type RunSummary } from "../db/run-history";
import { listTasksOfWork, readTask, type TaskView } from "./tasks";
import { listVisibleWorks } from "./works";
import type { WorkRecord } from "../db/works";

export async function loadWorksOverview(actor: Actor): Promise<{ work: WorkRecord; taskCount: number }[]> {
  const works = await listVisibleWorks(actor);
  const counts = await countTasksOfWorks({ workIds: works.map((w) => w.id) });
  return works.map((work) => ({ work, taskCount: counts.get(work.id) ?? 0 }));
}

export async function loadTasksWithLatestRun(
  actor: Actor,
  workId: string,
): Promise<{ task: TaskView; latest: RunSummary | null }[]> {
  const tasks = await listTasksOfWork(actor, workId);
  const latest = await latestRunsOfTasks({ taskIds: tasks.map((t) => t.id) });
  return tasks.map((task) => ({ task, latest: latest.get(task.id) ?? null }));
}

const RUN_PAGE_SIZE = 20;

export async function loadTaskPage(actor: Actor, taskId: string, beforeNumber?: number) {
  const { task, work } = await readTask(actor, taskId);
  const runs = await listRunsOfTask({ taskId, take: RUN_PAGE_SIZE + 1, beforeNumber });
  return { task, work, runs: runs.slice(0, RUN_PAGE_SIZE), hasMore: runs.length > RUN_PAGE_SIZE };
}
