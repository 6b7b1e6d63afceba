// What a built-in gets to do its work, and what it answers.
import type { PlaceholderDirs } from "../../gates/placeholders";

export type BuiltinIo = {
  // One line of the check's log (masked and capped like a command's output).
  log: (line: string) => void;
  // Aborted at the check's timeout or when the run is stopped.
  signal: AbortSignal;
  dirs: PlaceholderDirs;
};

export type BuiltinAnswer = { verdict: "passed" | "failed" | "error"; message: string };

// The most a built-in reads of one file: a larger file is an error, not a slow server.
export const MAX_FILE_BYTES = 64 * 1024 * 1024;
