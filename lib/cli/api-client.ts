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
  // The stage the task stands at on its lane (null: on no lane).
  stage?: string | null;
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

function parseJson<T>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

export class ApiClient {
  constructor(private readonly config: CliConfig) {}

  get url(): string {
    return this.config.url;
  }

  private async send(method: string, path: string, body?: unknown): Promise<Response> {
    try {
      return await fetch(`${this.config.url}${path}`, {
        method,
        headers: {
          ...(this.config.token ? { authorization: `Bearer ${this.config.token}` } : {}),
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
  }

  // An address that answers, but not as Gatehouse's API does (a web page: the sign-in page's address copied
  // from the browser, another site): the address and where it was set, instead of a JSON parser's complaint.
  private notTheApi(status?: number): CliError {
    const question =
      this.config.urlFrom === "GATEHOUSE_URL"
        ? "is GATEHOUSE_URL the server's address?"
        : this.config.urlFrom === "login"
          ? "`gatehouse login` stored it: is it the server's address?"
          : "is it the server's address?";
    return new CliError(
      `${this.config.url} did not answer with Gatehouse's API (${status ? `HTTP ${status}; ` : ""}${question})`,
      1,
      status ?? null,
    );
  }

  // Why the server refused: its own message (with the fields at fault), else the first line of its answer.
  private async refusalOf(response: Response): Promise<string> {
    const text = await response.text();
    const parsed = parseJson<ErrorBody>(text);
    const isPage = /html/i.test(response.headers.get("content-type") ?? "") || text.trimStart().startsWith("<");
    if (!parsed?.error?.message && isPage) throw this.notTheApi(response.status);
    const message = parsed?.error?.message ?? (text.trim().split("\n")[0] || response.statusText);
    const issues = (parsed?.error?.issues ?? []).map((i) => `${i.path}: ${i.message}`).join("; ");
    return issues && !message.includes(issues) ? `${message} (${issues})` : message;
  }

  private async request(method: string, path: string, body?: unknown): Promise<Response> {
    const response = await this.send(method, path, body);
    if (response.ok) return response;
    const detail = await this.refusalOf(response);
    if (response.status === 401) throw new CliError(`the token was refused by ${this.config.url}: ${detail}`, 1, 401);
    throw new CliError(`${detail} (HTTP ${response.status})`, 1, response.status);
  }

  private async parsed<T>(response: Response): Promise<T> {
    const value = parseJson<T>(await response.text());
    if (value === undefined) throw this.notTheApi();
    return value;
  }

  async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    return this.parsed<T>(await this.request(method, path, body));
  }

  async text(path: string): Promise<string> {
    const response = await this.request("GET", path);
    // A log is text/plain; a page here means the address is not Gatehouse's, and its HTML is not a log.
    if (/html/i.test(response.headers.get("content-type") ?? "")) throw this.notTheApi();
    return response.text();
  }

  // A new API token for an email and password (POST /api/auth/token, made without a token).
  async signIn(credentials: { email: string; password: string; name: string }): Promise<string> {
    const response = await this.send("POST", "/api/auth/token", credentials);
    if (!response.ok) throw new CliError(`sign-in refused: ${await this.refusalOf(response)}`, 1, response.status);
    const { token } = await this.parsed<{ token?: unknown }>(response);
    if (typeof token !== "string") throw this.notTheApi();
    return token;
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
  cancel = (runId: string) => this.json<RunSummaryJson>("POST", `/api/runs/${enc(runId)}/cancel`);
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
