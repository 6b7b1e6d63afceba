// What a built-in gets to do its work, and what it answers.
import type { PlaceholderDirs } from "../../gates/placeholders";

export type BuiltinIo = {
  // One line of the check's log (masked and capped like a command's output).
  log: (line: string) => void;
  // Aborted at the check's timeout or when the run is stopped.
  signal: AbortSignal;
  dirs: PlaceholderDirs;
  // A command in the checkout, as a check's command runs (sandbox, scrubbed environment, its own log under
  // the label); only verify's cli layer uses it. Absent where no attempt runs (then that layer is an error).
  exec?: (command: string, label: string) => Promise<ExecAnswer>;
  // The commit the attempt checks (verify writes it into its evidence); null when unknown.
  commit?: string | null;
};

// What a command gave: its exit code (null: it did not exit by itself), its output (capped) and, when it
// could not run or was stopped, why.
export type ExecAnswer = { exitCode: number | null; output: string; problem: string | null };

export type BuiltinAnswer = { verdict: "passed" | "failed" | "error"; message: string };

// The most a built-in reads of one file: a larger file is an error, not a slow server.
export const MAX_FILE_BYTES = 64 * 1024 * 1024;
