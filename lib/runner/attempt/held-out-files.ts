// A held-out check's own files as the checks found them. The checks share the checkout read-write, and the
// proof rows never run a held-out check again (their logs go back to the agent), so a test the agent
// commits could, when an earlier check runs it, rewrite the script a later held-out check runs
// (lib/runner/sandbox-shared-attacks.test.ts). Before a held-out check runs, its gate files (the scripts its
// command names, the npm scripts and make targets it runs, its runner's configuration: gate-files.ts) must
// be as they were when the checks began.
import { gateFilesOf } from "../../gates/gate-files";
import { partOf } from "../../gates/gate-file-parts";
import { globMatcher } from "../../gates/globs";
import type { EffectiveCheck } from "../../gates/merge-checks";
import { readCheckoutFile } from "../checkout/checkout-files";

const MAX_BYTES = 4 << 20;

export type HeldOutFiles = Map<string, Map<string, string | null>>;

export function isHeldOut(check: EffectiveCheck): boolean {
  return !!check.hidden && check.executor !== "agent" && check.use === undefined;
}

// What each held-out check's gate files hold now (by path and part; null: no such file).
export function heldOutFilesOf(
  checkoutPath: string,
  checks: readonly EffectiveCheck[],
  testPatterns: readonly string[],
): HeldOutFiles {
  const read = (file: string): string | null => {
    const found = readCheckoutFile(checkoutPath, file, { maxBytes: MAX_BYTES, cut: true });
    if (found.kind === "missing") return null;
    return found.kind === "file" ? found.bytes.toString("utf8") : `\0refused: ${found.reason}`;
  };
  const isTest = globMatcher(testPatterns);
  const all: HeldOutFiles = new Map();
  for (const check of checks.filter(isHeldOut)) {
    const files = new Map<string, string | null>();
    for (const ref of gateFilesOf(check, read, isTest).refs)
      files.set(`${ref.path}\0${ref.part ?? ""}`, partOf(read(ref.path), ref.part));
    all.set(check.id, files);
  }
  return all;
}

// Whether the check's gate files differ now from `before` (only the ones found then are compared).
export function heldOutFilesChanged(
  checkoutPath: string,
  check: EffectiveCheck,
  before: HeldOutFiles,
  testPatterns: readonly string[],
): boolean {
  const then = before.get(check.id);
  if (!then || then.size === 0) return false;
  const now = heldOutFilesOf(checkoutPath, [check], testPatterns).get(check.id)!;
  for (const [key, text] of then) if (now.get(key) !== text) return true;
  return false;
}
