// The JSON API as automation uses it: with the bootstrap admin token of this worker's e2e server.
import type { Json } from "@/lib/testing/json";
import { E2E_BOOTSTRAP_TOKEN } from "./accounts";
import { laneUrl } from "./lanes";

// This worker's server (see lanes.ts).
export const BASE_URL = laneUrl();

export async function api<T = Json>(
  method: string,
  path: string,
  body?: unknown,
  token = E2E_BOOTSTRAP_TOKEN,
): Promise<{ status: number; json: T }> {
  const res = await fetch(`${BASE_URL}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: (text ? JSON.parse(text) : null) as T };
}

// The demo Work as the API lists it (every e2e server starts with it).
export async function demoWorkJson(): Promise<Json> {
  const works = await api("GET", "/api/works");
  const demo = works.json.works.find((w) => w.name === "Gatehouse demo");
  if (!demo) throw new Error(`no demo Work in ${JSON.stringify(works.json)}`);
  return demo;
}

export async function demoWork(): Promise<{ id: string; taskId: string }> {
  const work = await demoWorkJson();
  const tasks = await api("GET", `/api/works/${work.id}/tasks`);
  return { id: work.id, taskId: tasks.json.tasks[0].id };
}

let counter = 0;
// A person with a role on a Work (created through the API as automation would).
export async function personWithRole(
  workId: string,
  role: "viewer" | "engineer" | "lead" | null,
): Promise<{ email: string; password: string; id: string }> {
  const email = `${role ?? "outsider"}-${Date.now()}-${counter++}@e2e.example`;
  const password = "a-long-enough-password";
  const created = await api("POST", "/api/users", { email, password, name: `${role ?? "outsider"} person` });
  if (created.status !== 201) throw new Error(`could not create ${email}: ${JSON.stringify(created.json)}`);
  if (role) {
    const set = await api("PUT", `/api/works/${workId}/members/${created.json.id}`, { role });
    if (set.status !== 200) throw new Error(`could not give ${role}: ${JSON.stringify(set.json)}`);
  }
  return { email, password, id: created.json.id };
}

// A Work on the demo repository with the given checks, one task, and (optionally) a dispatched run.
export async function workWithChecks(
  name: string,
  checkDefaults: unknown[],
  extra: Record<string, unknown> = {},
): Promise<{ workId: string; taskId: string }> {
  const demo = await demoWorkJson();
  const work = await api("POST", "/api/works", {
    name: `${name} ${Date.now()}`,
    repoUrl: demo.repoUrl,
    baseBranch: "main",
    checkDefaults,
    ...extra,
  });
  if (work.status !== 201) throw new Error(JSON.stringify(work.json));
  const task = await api("POST", `/api/works/${work.json.id}/tasks`, { title: name });
  return { workId: work.json.id, taskId: task.json.id };
}

export async function dispatch(taskId: string): Promise<string> {
  const res = await api("POST", `/api/tasks/${taskId}/dispatch`);
  if (res.status !== 202) throw new Error(JSON.stringify(res.json));
  return res.json.runId;
}

export async function runJson(runId: string): Promise<Json> {
  return (await api("GET", `/api/runs/${runId}`)).json;
}
