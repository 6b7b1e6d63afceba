// Evidence (profiles standard and full): each acceptance criterion shown working by the agent in
// .gatehouse/evidence.md (lib/gates/evidence.ts decides the `_evidence` row).
import { criteriaOf, evidenceRow } from "../../../gates/evidence";
import { profilesWith } from "../../../gates/profiles";
import { readEvidenceFile } from "../../evidence-file";
import { NOTHING, type Step } from "../step";

export const evidenceStep: Step = {
  id: "evidence",
  profiles: profilesWith("evidence"),
  after: "always",
  async run(ctx) {
    const { run } = ctx;
    // Like the proof rows: none without proof settings and a start commit, and none when the change could
    // not be read (the proof step's `_protected` row already says why the attempt is red).
    if (!run.proof || !run.startCommit) return NOTHING;
    const startedAt = new Date();
    const isChangeRead = await ctx.change().then(
      () => true,
      () => false,
    );
    if (!isChangeRead) return NOTHING;
    // As the agent left it, read before the checks (which run the agent's code, and an ignored evidence file
    // is removed before them).
    const text = ctx.evidence === undefined ? readEvidenceFile(ctx.checkoutPath) : ctx.evidence;
    const row = evidenceRow({ criteria: criteriaOf(run.checks), text });
    if (!row) return NOTHING;
    ctx.record(row, startedAt);
    return { verdicts: [{ required: row.required, verdict: row.verdict, checkId: row.checkId, message: row.message }] };
  },
};
