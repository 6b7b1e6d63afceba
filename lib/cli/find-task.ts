// A task named on the command line by its id or its key (GATE-12). Each Work's key prefix is its own, but
// tasks made before prefixes were (migration work_key_prefix_unique) kept their keys: a key found in two
// Works needs --work.
import type { ApiClient, TaskJson, WorkJson } from "./api-client";
import { CliError } from "./cli-error";

export async function findTask(
  client: ApiClient,
  ref: string,
  workRef?: string,
): Promise<{ task: TaskJson; work: WorkJson }> {
  if (!workRef) {
    const byId = await client.task(ref).catch((error: unknown) => {
      if (error instanceof CliError && error.status === 404) return null;
      throw error;
    });
    if (byId) return { task: byId, work: await client.work(byId.workId) };
  }
  const works = (await client.works()).filter((w) => !workRef || w.id === workRef || w.name === workRef);
  if (workRef && works.length === 0) throw new CliError(`no Work "${workRef}" that you can see`);
  const found: { task: TaskJson; work: WorkJson }[] = [];
  for (const work of works) {
    for (const task of await client.tasks(work.id))
      if (task.key.toLowerCase() === ref.toLowerCase() || task.id === ref) found.push({ task, work });
  }
  if (found.length === 0) throw new CliError(`no task "${ref}" that you can see (give its id or key)`);
  if (found.length > 1)
    throw new CliError(
      `"${ref}" is a task of ${found.length} Works (${found.map((f) => f.work.name).join(", ")}): add --work <id>`,
    );
  return found[0];
}

export async function findWork(client: ApiClient, ref: string): Promise<WorkJson> {
  const works = await client.works();
  const work = works.find((w) => w.id === ref) ?? works.filter((w) => w.name === ref);
  if (!Array.isArray(work)) return work;
  if (work.length === 1) return work[0];
  if (work.length === 0) throw new CliError(`no Work "${ref}" that you can see (give its id or name)`);
  throw new CliError(`${work.length} Works are named "${ref}": give its id`);
}
