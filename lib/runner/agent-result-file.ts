// The agent CLI's own result (lib/gates/agent-result.ts), read from the end of the agent's stored log:
// the result is the last thing such a CLI prints, so 1 MB from the end holds it however long the session.
import fs from "node:fs";
import { parseAgentResult, type AgentResult } from "../gates/agent-result";
import { stripAnsi } from "../gates/strip-ansi";
import type { OutputMasker } from "./output/masker";

const READ_BYTES = 1024 * 1024;

export function readAgentResult(logPath: string, masker: OutputMasker): AgentResult | null {
  let text: string;
  try {
    const fd = fs.openSync(logPath, "r");
    try {
      const size = fs.fstatSync(fd).size;
      const length = Math.min(size, READ_BYTES);
      const buffer = Buffer.alloc(length);
      fs.readSync(fd, buffer, 0, length, size - length);
      text = buffer.toString("utf8");
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return null;
  }
  // The log is stored masked already; the message is masked again as shown (it is shown on its own).
  const result = parseAgentResult(stripAnsi(text));
  if (!result) return null;
  return { ...result, lastMessage: result.lastMessage && masker.maskText(result.lastMessage) };
}
