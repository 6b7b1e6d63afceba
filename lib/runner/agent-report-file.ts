// Reads the agent's report file without trusting it: never through a symbolic link (out of the run's
// directory), only a regular file with one link, at most REPORT_MAX_BYTES read, and never a crash.
import fs from "node:fs";
import { parseAgentReport, REPORT_MAX_BYTES, type ParsedReport } from "../gates/agent-report";

// null: there is no report file.
export function readAgentReport(file: string): ParsedReport | null {
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO in its place must not hang the run.
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return null;
    if (code === "ELOOP") return { problem: "a symbolic link, not a file (links are not followed)" };
    return { problem: `cannot be opened (${code ?? "unknown error"})` };
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return { problem: "not a regular file" };
    if (stat.nlink > 1) return { problem: "a hard link to another file (write a file of your own)" };
    if (stat.size > REPORT_MAX_BYTES) return { problem: `${stat.size} bytes, at most ${REPORT_MAX_BYTES} (1 MB)` };
    const buffer = Buffer.alloc(REPORT_MAX_BYTES + 1);
    let length = 0;
    for (;;) {
      const n = fs.readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
      if (length > REPORT_MAX_BYTES) return { problem: `more than ${REPORT_MAX_BYTES} bytes (1 MB)` };
    }
    return parseAgentReport(buffer.subarray(0, length).toString("utf8"));
  } catch (error) {
    return { problem: `cannot be read (${(error as NodeJS.ErrnoException).code ?? "unknown error"})` };
  } finally {
    fs.closeSync(fd);
  }
}
