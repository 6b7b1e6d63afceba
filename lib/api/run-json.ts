// The run as the browser receives it (GET /api/runs/:id).
import type { presentRun } from "./present-run";
import type { Jsonify } from "./jsonify";

export type RunJson = Jsonify<ReturnType<typeof presentRun>>;
export type AttemptJson = RunJson["attempts"][number];

// A run still changing on its own (the runner is working on it).
export function isRunLive(run: Pick<RunJson, "status">): boolean {
  return run.status === "queued" || run.status === "running";
}
