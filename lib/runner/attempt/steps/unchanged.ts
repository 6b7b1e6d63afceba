// `_unchanged` (with the proof rows): the checks share the checkout read-write and run the agent's code, so a
// test run by an earlier check can rewrite a source file that a later check (a held-out one too) then runs,
// while the commit keeps the original. After the checks the checkout's fingerprint is read again: a file of
// the change that the checks modified or deleted makes this row red, naming it. Files the checks added
// (reports, outputs) are not counted, and when nothing changed there is no row.
import type { ProofRow } from "../../../gates/proof";
import { PROOF_KIND, PROOF_NAMES, UNCHANGED } from "../../../gates/proof-ids";
import { PROFILES } from "../../../gates/work-schema";
import { filesChanged } from "../context";
import { NOTHING, type Step, verdictOfRow } from "../step";

const MAX_NAMED = 5;

export const unchangedStep: Step = {
  id: "unchanged",
  profiles: PROFILES,
  after: "always",
  async run(ctx) {
    const { run } = ctx;
    const before = ctx.checkedTreeRead();
    if (!run.proof || !run.startCommit || !before) return NOTHING;
    const startedAt = new Date();
    let verdict: ProofRow["verdict"] = "failed";
    let message: string;
    let details: string;
    try {
      const after = await ctx.fingerprintNow();
      if (after === before) return NOTHING;
      const { store } = await ctx.change();
      await store.bring(ctx.checkoutPath, after, before);
      const touched = (await filesChanged(store.options(), before, after)).filter((c) => c.status !== "A");
      if (touched.length === 0) return NOTHING;
      const names = touched.slice(0, MAX_NAMED).map((c) => `${c.path} (${c.status === "D" ? "deleted" : "modified"})`);
      const more = touched.length > MAX_NAMED ? ` and ${touched.length - MAX_NAMED} more` : "";
      message =
        `The checks changed ${touched.length === 1 ? "a file" : `${touched.length} files`} of the change: ` +
        `${names.join(", ")}${more}; the checks after that ran on code the commit does not hold`;
      details = `${message}\n\n${touched.map((c) => `${c.status} ${c.path}`).join("\n")}\n`;
    } catch (error) {
      verdict = "error";
      message = `could not read the checkout after the checks: ${(error as Error).message}`;
      details = `${message}\n`;
    }
    const row: ProofRow = {
      checkId: UNCHANGED,
      name: PROOF_NAMES[UNCHANGED],
      kind: PROOF_KIND,
      required: true,
      verdict,
      message,
      details,
    };
    ctx.record(row, startedAt);
    return { verdicts: [verdictOfRow(row)] };
  },
};
