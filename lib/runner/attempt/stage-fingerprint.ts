// What "no change since attempt k" compares for an attempt: for a stage with an output file, that file's
// content (read through the checkout's safe reader; its absence is a state too), so a stage whose agent
// rewrote nothing it is asked for is not re-checked; otherwise the whole worktree's content.
import crypto from "node:crypto";
import { stageOfRun, type Lane } from "../../gates/lanes";
import { checkoutFingerprint } from "../checkout/checkout";
import { readCheckoutFile } from "../checkout/checkout-files";

const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

// `tree`: the checkout's fingerprint when the caller has just read it (checkoutState), not read again.
export async function attemptFingerprint(
  checkoutPath: string,
  run: { lane: Lane | null; stage: string | null },
  tree?: string,
): Promise<string | null> {
  const output = stageOfRun(run)?.stage.output;
  if (!output) return tree ?? checkoutFingerprint(checkoutPath).catch(() => null);
  const read = readCheckoutFile(checkoutPath, output, { maxBytes: MAX_OUTPUT_BYTES });
  if (read.kind === "refused") return null;
  const content = read.kind === "file" ? crypto.createHash("sha256").update(read.bytes).digest("hex") : "missing";
  return `output:${output}:${content}`;
}
