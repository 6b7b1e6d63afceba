// A gates file's checks judged by the rules a save applies, before the person chooses Replace or Add:
// a preview that says "21 checks ready" and then fails on save is worse than no preview.
import { type Check, ZCheckList } from "../check-schema";
import { toFieldIssues, type FieldIssue } from "../field-issues";

type ImportVerdict = { checks: Check[]; problems: FieldIssue[] };

// The list each choice would save, and what the save would refuse about it (paths as the server gives them).
export function judgeImport(
  current: readonly Check[],
  imported: readonly Check[],
): { replace: ImportVerdict; append: ImportVerdict } {
  const judge = (checks: Check[]): ImportVerdict => {
    const parsed = ZCheckList.safeParse(checks);
    return { checks, problems: parsed.success ? [] : toFieldIssues(parsed.error, ["checkDefaults"]) };
  };
  return { replace: judge([...imported]), append: judge([...current, ...imported]) };
}
