// Turns a zod failure into the one user-facing error: the field path and the rule it broke.
import type { z } from "zod";
import { AppError } from "../errors";
import { describeIssues, toFieldIssues, type FieldIssue } from "../gates/field-issues";

export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issues = toFieldIssues(parsed.error);
  throw new AppError("validation", describeIssues(issues), issues);
}

export function refuseIssues(issues: FieldIssue[]): void {
  if (issues.length > 0) throw new AppError("validation", describeIssues(issues), issues);
}
