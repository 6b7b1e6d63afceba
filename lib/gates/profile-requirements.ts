// What a Work's verification profile asks of a task's runs, in words, before anyone dispatches: a
// profile's layers are otherwise learnt from a first run that is red with every check green.
import { EVIDENCE_FILE } from "./evidence";
import { hasLayer } from "./profiles";
import type { Profile } from "./work-schema";

export type ProfileRequirementsInput = {
  profile: Profile;
  // The task's acceptance criteria (the checks it adds); null on the Work's page (no task in view).
  criteria: readonly string[] | null;
  hasReview: boolean;
  hasRedTeam: boolean;
};

const list = (ids: readonly string[]) => ids.map((id) => `“${id}”`).join(", ");

// What the evidence layer asks of this task (or, on the Work's page, of any task).
function evidenceAsked(profile: Profile, criteria: readonly string[] | null): string {
  if (criteria === null)
    return (
      `Profile ${profile}: for every check a task adds (its acceptance criteria), the agent must show ` +
      `it working in ${EVIDENCE_FILE} — a “## <check id>” heading, the command in a fenced block, its ` +
      `output in the next. A run without it is red, even with every check green.`
    );
  if (criteria.length === 0)
    return `Profile ${profile}: this task adds no acceptance check, so no evidence file is asked for.`;
  return (
    `Profile ${profile}: this task adds ${criteria.length} acceptance check` +
    `${criteria.length === 1 ? "" : "s"} (${list(criteria)}), so the agent must write ${EVIDENCE_FILE} ` +
    `with a “## <check id>” section for each — the command in a fenced block, its output in the next. ` +
    `Without it the run is red, even with every check green. The brief tells the agent exactly this.`
  );
}

// The profile's layers (lib/gates/profiles.ts), in the order a run meets them.
export function profileRequirements(input: ProfileRequirementsInput): string[] {
  const { profile } = input;
  const out: string[] = [];
  if (hasLayer(profile, "evidence")) out.push(evidenceAsked(profile, input.criteria));
  if (hasLayer(profile, "review") && input.hasReview)
    out.push("After a green gate an independent review runs the criteria itself; unmet ones are red.");
  if (hasLayer(profile, "red-team") && input.hasRedTeam)
    out.push("Then a red team writes probes to break the change; a failing probe goes back to the agent.");
  if (hasLayer(profile, "mutation"))
    out.push(
      "Last, a mutation floor: with a committed threshold, tests that miss changes to the changed files are red.",
    );
  if (out.length === 0) out.push(`Profile ${profile}: the checks and the proof rows decide; nothing more is asked.`);
  return out;
}
