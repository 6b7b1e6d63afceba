// Logs being written right now, so the dashboard can follow a running check's tail from memory.
import type { LogSink } from "./output/log-sink";

const holder = globalThis as unknown as { __gatehouseLiveLogs?: Map<string, LogSink> };
holder.__gatehouseLiveLogs ??= new Map<string, LogSink>();
const live = holder.__gatehouseLiveLogs;

export function liveLogKey(runId: string, n: number, name: string): string {
  return `${runId}/${n}/${name}`;
}

export function registerLiveLog(key: string, sink: LogSink): void {
  live.set(key, sink);
}

export function unregisterLiveLog(key: string): void {
  live.delete(key);
}

export function findLiveLog(key: string): LogSink | undefined {
  return live.get(key);
}

// The logs of a run being written now: [attempt number, name, sink].
export function liveLogsOfRun(runId: string): [number, string, LogSink][] {
  const found: [number, string, LogSink][] = [];
  for (const [key, sink] of live) {
    const [id, n, name] = key.split("/");
    if (id === runId) found.push([Number(n), name, sink]);
  }
  return found;
}
