// Runs a built-in check where a command would run: same log writer (capped, masked, readable live), the
// check's timeout and the run's cancel, a duration, exit code null. The answer's message is the row's.
import {
  BUILTIN_PARAMS,
  describeBuiltin,
  isBuiltinName,
  type BuiltinName,
  type BuiltinParams,
} from "../../gates/builtins";
import type { PlaceholderDirs } from "../../gates/placeholders";
import { LogSink } from "../output/log-sink";
import type { OutputMasker } from "../output/masker";
import type { CommandOutcome } from "../process/run-command";
import type { BuiltinAnswer, BuiltinIo } from "./builtin-io";
import { fileContains, fileExists, jsonValid, minWords } from "./file-builtins";
import { httpOk } from "./http-ok";
import { noMatch } from "./no-match";
import { fileHas, research, tasksDone } from "./stage-builtins";
import { verify } from "./verify";

export type BuiltinSpec = {
  use: string;
  with: Record<string, unknown> | undefined;
  dirs: PlaceholderDirs;
  timeoutMs: number;
  logPath: string;
  capBytes: number;
  masker: OutputMasker;
  signal?: AbortSignal;
  onStart?: (sink: LogSink) => void;
  exec?: BuiltinIo["exec"];
  commit?: string | null;
};

// A command's outcome, plus the verdict the built-in gave (passed, failed or error).
export type BuiltinOutcome = CommandOutcome & { builtinVerdict: BuiltinAnswer["verdict"] | null };

const IMPLEMENTATIONS: { [K in BuiltinName]: (p: BuiltinParams[K], io: BuiltinIo) => Promise<BuiltinAnswer> } = {
  json_valid: jsonValid,
  file_exists: fileExists,
  file_contains: fileContains,
  min_words: minWords,
  no_match: noMatch,
  http_ok: httpOk,
  file_has: fileHas,
  research,
  tasks_done: tasksDone,
  verify,
};

function answerOf(use: string, params: unknown, io: BuiltinIo): Promise<BuiltinAnswer> {
  if (!isBuiltinName(use)) return Promise.resolve({ verdict: "error", message: `unknown built-in "${use}"` });
  // Checked when saved; checked again here, as frozen data may have come in another way.
  const parsed = BUILTIN_PARAMS[use].safeParse(params ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return Promise.resolve({ verdict: "error", message: `with.${issue.path.join(".") || "?"}: ${issue.message}` });
  }
  const run = IMPLEMENTATIONS[use] as (p: unknown, io: BuiltinIo) => Promise<BuiltinAnswer>;
  return run(parsed.data, io);
}

export async function runBuiltin(spec: BuiltinSpec): Promise<BuiltinOutcome> {
  const started = performance.now();
  const sink = new LogSink(spec.logPath, spec.capBytes);
  spec.onStart?.(sink);
  const log = (line: string) => sink.write(spec.masker.push(Buffer.from(`${line}\n`)));
  const controller = new AbortController();
  let isTimedOut = false;
  let isAborted = false;
  const stopped = new Promise<null>((resolve) =>
    controller.signal.addEventListener("abort", () => resolve(null), { once: true }),
  );
  const timer = setTimeout(
    () => {
      isTimedOut = true;
      controller.abort();
    },
    Math.max(1, spec.timeoutMs),
  );
  const onAbort = () => {
    isAborted = true;
    controller.abort();
  };
  if (spec.signal?.aborted) onAbort();
  spec.signal?.addEventListener("abort", onAbort, { once: true });
  log(`[gatehouse] built-in ${describeBuiltin(spec.use, spec.with)}`);
  let answer: BuiltinAnswer | null;
  try {
    answer = isAborted
      ? null
      : await Promise.race([
          answerOf(spec.use, spec.with, {
            log,
            signal: controller.signal,
            dirs: spec.dirs,
            exec: spec.exec,
            commit: spec.commit,
          }),
          stopped,
        ]);
  } catch (error) {
    answer = controller.signal.aborted
      ? null
      : { verdict: "error", message: `${spec.use}: ${(error as Error).message}` };
  } finally {
    clearTimeout(timer);
    spec.signal?.removeEventListener("abort", onAbort);
  }
  if (answer) log(`${answer.verdict}: ${answer.message}`);
  else log(isTimedOut ? `[gatehouse] stopped at the timeout` : "[gatehouse] stopped: the run was stopped");
  sink.write(spec.masker.end());
  const summary = sink.finish();
  return {
    ...summary,
    message: answer?.message ?? summary.message,
    spawnError: null,
    exitCode: null,
    signal: null,
    isTimedOut: !answer && isTimedOut,
    isAborted: !answer && isAborted,
    durationMs: Math.round(performance.now() - started),
    isExpectedOutputFound: false,
    builtinVerdict: answer?.verdict ?? null,
  };
}
