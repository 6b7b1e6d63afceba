// Turns a zod failure into the one user-facing error: the field path and the rule it broke.
import type { z } from "zod";
import { refuseUnstorableText } from "../api/request-input";
import { AppError } from "../errors";
import { describeIssues, toFieldIssues, type FieldIssue } from "../gates/field-issues";

// Text no database can store (a lone surrogate, NUL) is refused first, naming its field, whether the
// input came from the JSON API or a Server Action's form.
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  refuseUnstorableText(input);
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issues = toFieldIssues(parsed.error);
  throw new AppError("validation", describeIssues(issues), issues);
}

export function refuseIssues(issues: FieldIssue[]): void {
  if (issues.length > 0) throw new AppError("validation", describeIssues(issues), issues);
}
