// Validation issues as the API and the editors show them: a dotted field path and the rule broken.
import type { z } from "zod";

export type FieldIssue = { path: string; message: string };

// An unknown field is reported at its own path (e.g. "checkDefaults.0.retries"), one issue per field.
export function toFieldIssues(error: z.ZodError, prefix: (string | number)[] = []): FieldIssue[] {
  return error.issues.flatMap((issue) => {
    const at = [...prefix, ...issue.path].map(String);
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({
        path: [...at, key].join("."),
        message:
          key === "disabled" && issue.message.includes(DISABLED_IN_DEFAULTS)
            ? DISABLED_IN_DEFAULTS
            : `unknown field: ${key}`,
      }));
    }
    return [{ path: at.join("."), message: issue.message }];
  });
}

export const DISABLED_IN_DEFAULTS =
  "a Work's default cannot be disabled: only a task's entries suppress a default; delete the check here instead";

export function describeIssues(issues: readonly FieldIssue[]): string {
  if (issues.length === 0) return "invalid input";
  const [first] = issues;
  const head = first.path ? `${first.path}: ${first.message}` : first.message;
  return issues.length === 1 ? head : `${head} (and ${issues.length - 1} more)`;
}

// Whether an issue is about the field: at its path or under it ("checks.0.id" is about "checks").
export function isIssueOf(issue: FieldIssue, field: string): boolean {
  return issue.path === field || issue.path.startsWith(`${field}.`);
}

// A refused form's issues shared out: each of its fields gets the first issue at its path or under it (shown
// beside the field), and the issues no field names stay in `rest` (shown with the form), so none is lost.
export function issuesByField<F extends string>(
  issues: readonly FieldIssue[],
  fields: readonly F[],
): { byField: Partial<Record<F, string>>; rest: FieldIssue[] } {
  const byField: Partial<Record<F, string>> = {};
  const rest: FieldIssue[] = [];
  for (const issue of issues) {
    const field = fields.find((f) => isIssueOf(issue, f));
    if (field === undefined) rest.push(issue);
    else byField[field] ??= issue.message;
  }
  return { byField, rest };
}
