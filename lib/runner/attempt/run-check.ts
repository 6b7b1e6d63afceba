// One check carried out where its command would run: a built-in (`use`) by Gatehouse itself, or the
// command through bash, with its placeholders expanded (each directory shell-quoted) and the directories
// in GATEHOUSE_RESULTS_DIR / _CHECKS_DIR / _ASSETS_DIR. A placeholder this run cannot fill is an error
// result with the reason, never a command run with a hole in it.
import fs from "node:fs";
import path from "node:path";
import type { EffectiveCheck } from "../../gates/merge-checks";
import {
  expandCommandPlaceholders,
  PLACEHOLDER_ENV,
  PLACEHOLDER_NAMES,
  PlaceholderError,
  type PlaceholderDirs,
} from "../../gates/placeholders";
import { resolveInsideCheckout } from "../checkout/checkout";
import { readWorktreeHead } from "../checkout/read-head";
import { runBuiltin, type BuiltinOutcome } from "../builtins/run-builtin";
import { registerLiveLog, unregisterLiveLog } from "../live-logs";
import { LogSink } from "../output/log-sink";
import type { AttemptContext } from "./context";

type Where = {
  checkoutDir: string;
  cwd: string;
  timeoutMs: number;
  logPath: string;
  // The name its log is followed under (the check's id, or the proof row's and the check's).
  liveName: string;
};

// The run's directories for placeholders, or why {{results_dir}} cannot be one (it leaves the checkout).
function placeholderDirsOf(
  ctx: Pick<AttemptContext, "work" | "assetsDir" | "checksDir">,
  checkoutDir: string,
): { dirs: PlaceholderDirs; resultsMissing: string | null } | { error: string } {
  const resultsDir = ctx.work.resultsDir ?? null;
  const dirs = (results: string): PlaceholderDirs => ({
    results_dir: results,
    checks_dir: ctx.checksDir ?? null,
    assets_dir: ctx.assetsDir ?? null,
  });
  if (!resultsDir) return { dirs: dirs(checkoutDir), resultsMissing: null };
  const where = resolveInsideCheckout(checkoutDir, resultsDir);
  if (!("error" in where)) return { dirs: dirs(where.path), resultsMissing: null };
  if (
    !fs.existsSync(path.resolve(/* turbopackIgnore: true */ checkoutDir, resultsDir)) &&
    !where.error.includes("leaves")
  )
    return {
      dirs: dirs(path.resolve(checkoutDir, resultsDir)),
      resultsMissing: `{{results_dir}}: the results directory "${resultsDir}" does not exist in the checkout`,
    };
  return { error: `the Work's resultsDir: ${where.error.replace(/^cwd/, "")}` };
}

// The placeholder directories as environment variables (only those this run has).
function placeholderEnv(dirs: PlaceholderDirs): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of PLACEHOLDER_NAMES) if (dirs[name] !== null) env[PLACEHOLDER_ENV[name]] = dirs[name];
  return env;
}

// The first 64 KB of a command's log (Gatehouse's own file in the data dir, not the checkout's).
function readCapped(logPath: string): string {
  try {
    const fd = fs.openSync(logPath, "r");
    try {
      const buffer = Buffer.alloc(64 * 1024);
      return buffer.subarray(0, fs.readSync(fd, buffer, 0, buffer.length, 0)).toString("utf8");
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return "";
  }
}

// An error result that ran nothing, its reason in the log like a command that could not start.
function cannotRun(logPath: string, capBytes: number, message: string): BuiltinOutcome {
  const sink = new LogSink(logPath, capBytes);
  sink.write(Buffer.from(`[gatehouse] ${message}\n`));
  return {
    ...sink.finish(),
    message,
    spawnError: message,
    exitCode: null,
    signal: null,
    isTimedOut: false,
    isAborted: false,
    durationMs: 0,
    isExpectedOutputFound: false,
    builtinVerdict: null,
  };
}

export async function runCheckHere(ctx: AttemptContext, check: EffectiveCheck, at: Where): Promise<BuiltinOutcome> {
  const { deps } = ctx;
  const found = placeholderDirsOf(ctx, at.checkoutDir);
  if ("error" in found) return cannotRun(at.logPath, deps.logCapBytes, found.error);
  const { dirs, resultsMissing } = found;
  if (check.use !== undefined) {
    if (resultsMissing && check.use !== "http_ok") return cannotRun(at.logPath, deps.logCapBytes, resultsMissing);
    const liveKey = ctx.liveKey(at.liveName);
    const outcome = await runBuiltin({
      use: check.use,
      with: check.with,
      dirs,
      timeoutMs: at.timeoutMs,
      logPath: at.logPath,
      capBytes: deps.logCapBytes,
      masker: ctx.streamMasker(),
      signal: ctx.signal,
      onStart: (sink) => registerLiveLog(liveKey, sink),
      // verify's cli layer: each command as a check's own (sandbox, environment, budget), its own log.
      exec: async (command, label) => {
        const logPath = `${at.logPath}.${label.replace(/[^A-Za-z0-9_-]/g, "_")}`;
        const ran = await ctx.exec({
          command,
          cwd: at.cwd,
          env: { checkId: check.id, passthrough: [], extra: placeholderEnv(dirs) },
          timeoutMs: at.timeoutMs,
          logPath,
          liveName: `${at.liveName}.${label}`,
        });
        const problem = ran.spawnError ?? (ran.isTimedOut ? "timed out" : ran.isAborted ? "stopped" : null);
        return { exitCode: ran.exitCode, output: readCapped(logPath), problem };
      },
      commit: readWorktreeHead(at.checkoutDir)?.commit ?? null,
    }).finally(() => unregisterLiveLog(liveKey));
    // Gatehouse carries a built-in out itself (no command): its time counts toward the budget all the same.
    ctx.budget.spend(outcome.durationMs);
    return outcome;
  }
  const command = check.command ?? "";
  let expanded: string;
  try {
    expanded = expandCommandPlaceholders(command, dirs);
  } catch (error) {
    if (error instanceof PlaceholderError) return cannotRun(at.logPath, deps.logCapBytes, error.message);
    throw error;
  }
  if (resultsMissing && /\{\{\s*results_dir\s*\}\}/.test(command))
    return cannotRun(at.logPath, deps.logCapBytes, resultsMissing);
  const outcome = await ctx.exec({
    command: expanded,
    cwd: at.cwd,
    env: { checkId: check.id, passthrough: check.envPassthrough ?? [], extra: placeholderEnv(dirs) },
    timeoutMs: at.timeoutMs,
    logPath: at.logPath,
    liveName: at.liveName,
    expectStdout: check.expectStdout,
  });
  return { ...outcome, builtinVerdict: null };
}
