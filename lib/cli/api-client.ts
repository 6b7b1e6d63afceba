// A small typed client of Gatehouse's JSON API (the routes under app/api, the same roles): every failure
// becomes a CliError whose one line says what happened — the server's own message for a refusal, the
// address for a server that cannot be reached.
import type { RunJson } from "../api/run-json";
import { CliError } from "./cli-error";
import type { CliConfig } from "./config";

export type WorkJson = {
  id: string;
  name: string;
  repoUrl: string;
  baseBranch: string | null;
  version: number;
} & Record<string, unknown>;
type CheckJson = {
  id: string;
  name: string;
  kind: string;
  required: boolean;
  command?: string;
  hidden?: boolean;
  executor?: string;
  source?: string;
};
export type TaskJson = {
  id: string;
  workId: string;
  key: string;
  title: string;
  description: string | null;
  branch: string;
  agentCommand: string | null;
  effectiveChecks: CheckJson[];
  version: number;
};
export type RunSummaryJson = Pick<
  RunJson,
  "id" | "taskId" | "workId" | "number" | "status" | "gate" | "ending" | "endingReason" | "maxAttempts" | "createdAt"
>;
export type { RunJson };
export type LogLinesJson = {
  totalLines: number;
  totalBytes: number;
  isLive: boolean;
  lines: { n: number; text: string }[];
};
export type PushedAttemptJson = { runId: string; number: number; attempt: number; isNewRun: boolean };

type ErrorBody = { error?: { message?: string; issues?: { path: string; message: string }[] } };

export class ApiClient {
  constructor(private readonly config: CliConfig) {}

  get url(): string {
    return this.config.url;
  }

  private async request(method: string, path: string, body?: unknown): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(`${this.config.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.config.token}`,
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new CliError(
        `cannot reach ${this.config.url}: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
      );
    }
    if (response.ok) return response;
    const text = await response.text();
    let parsed: ErrorBody = {};
    try {
      parsed = JSON.parse(text) as ErrorBody;
    } catch {
      // not JSON: a proxy's page, or not Gatehouse at all
    }
    const message = parsed.error?.message ?? (text.trim().split("\n")[0] || response.statusText);
    const issues = (parsed.error?.issues ?? []).map((i) => `${i.path}: ${i.message}`).join("; ");
    const detail = issues && !message.includes(issues) ? `${message} (${issues})` : message;
    if (response.status === 401) throw new CliError(`the token was refused by ${this.config.url}: ${detail}`, 1, 401);
    throw new CliError(`${detail} (HTTP ${response.status})`, 1, response.status);
  }

  async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await this.request(method, path, body);
    return (await response.json()) as T;
  }

  async text(path: string): Promise<string> {
    return (await this.request("GET", path)).text();
  }

  works = () => this.json<{ works: WorkJson[] }>("GET", "/api/works").then((r) => r.works);
  work = (id: string) => this.json<WorkJson>("GET", `/api/works/${enc(id)}`);
  patchWork = (id: string, changes: Record<string, unknown>) =>
    this.json<WorkJson>("PATCH", `/api/works/${enc(id)}`, changes);
  tasks = (workId: string) =>
    this.json<{ tasks: TaskJson[] }>("GET", `/api/works/${enc(workId)}/tasks`).then((r) => r.tasks);
  task = (id: string) => this.json<TaskJson>("GET", `/api/tasks/${enc(id)}`);
  runsOf = (taskId: string) =>
    this.json<{ runs: RunSummaryJson[] }>("GET", `/api/tasks/${enc(taskId)}/runs`).then((r) => r.runs);
  run = (id: string) => this.json<RunJson>("GET", `/api/runs/${enc(id)}`);
  dispatch = (taskId: string) =>
    this.json<{ runId: string; number: number }>("POST", `/api/tasks/${enc(taskId)}/dispatch`);
  attemptAt = (taskId: string, body: { commit: string; report?: { checks: unknown[] } }) =>
    this.json<PushedAttemptJson>("POST", `/api/tasks/${enc(taskId)}/attempts`, body);
  log = (runId: string, n: number, checkId: string) =>
    this.text(`/api/runs/${enc(runId)}/attempts/${n}/checks/${enc(checkId)}/log`);
  logLines = (runId: string, n: number, checkId: string, from: number) =>
    this.json<LogLinesJson>(
      "GET",
      `/api/runs/${enc(runId)}/attempts/${n}/checks/${enc(checkId)}/log/lines?from=${from}&count=2000`,
    );
}

const enc = encodeURIComponent;
