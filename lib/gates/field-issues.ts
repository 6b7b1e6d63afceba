// Validation issues as the API and the editors show them: a dotted field path and the rule broken.
import type { z } from "zod";

export type FieldIssue = { path: string; message: string };

export function toFieldIssues(error: z.ZodError, prefix: (string | number)[] = []): FieldIssue[] {
  return error.issues.map((issue) => ({
    path: [...prefix, ...issue.path].map(String).join("."),
    message: issue.message,
  }));
}

export function describeIssues(issues: readonly FieldIssue[]): string {
  if (issues.length === 0) return "invalid input";
  const [first] = issues;
  const head = first.path ? `${first.path}: ${first.message}` : first.message;
  return issues.length === 1 ? head : `${head} (and ${issues.length - 1} more)`;
}
