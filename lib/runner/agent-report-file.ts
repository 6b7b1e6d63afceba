// Reads the agent's report file without trusting it: through the one reader of files a run's process wrote
// (never through a link, only a regular file with one name, at most REPORT_MAX_BYTES), and never a crash.
import { parseAgentReport, REPORT_MAX_BYTES, type ParsedReport } from "../gates/agent-report";
import { readRunFile } from "./checkout/checkout-files";

// null: there is no report file.
export function readAgentReport(dataDir: string, file: string): ParsedReport | null {
  const read = readRunFile(dataDir, file, REPORT_MAX_BYTES);
  if (read.kind === "missing") return null;
  if (read.kind === "refused") return { problem: read.reason };
  return parseAgentReport(read.bytes.toString("utf8"));
}
