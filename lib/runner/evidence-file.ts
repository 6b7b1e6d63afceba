// Reads `.gatehouse/evidence.md` from the checkout: a regular file inside it, reached without a link (a link
// pointing elsewhere is not evidence), at most 1 MB; null when there is none.
import { EVIDENCE_FILE } from "../gates/evidence";
import { readCheckoutFile } from "./checkout/checkout-files";

const MAX_BYTES = 1024 * 1024;

export function readEvidenceFile(checkoutPath: string): string | null {
  const read = readCheckoutFile(checkoutPath, EVIDENCE_FILE, { maxBytes: MAX_BYTES, cut: true });
  return read.kind === "file" ? read.bytes.toString("utf8") : null;
}
