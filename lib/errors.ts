// The one error class meant for users. Its code maps to an HTTP status; everything else is a bug,
// logged and shown as "Something went wrong".
import type { FieldIssue } from "./gates/field-issues";

const ERROR_STATUS = {
  validation: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  busy: 409,
  too_large: 413,
  too_many: 429,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly issues: FieldIssue[];
  // Extra facts for the caller, e.g. the current version of what a stale save tried to overwrite.
  readonly details: Record<string, unknown> | undefined;
  constructor(code: ErrorCode, message: string, issues: FieldIssue[] = [], details?: Record<string, unknown>) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.issues = issues;
    this.details = details;
  }
  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export function isAppError(error: unknown): error is AppError {
  return (
    error instanceof AppError ||
    (!!error && typeof error === "object" && (error as { name?: string }).name === "AppError")
  );
}

export const notFound = (what: string) => new AppError("not_found", `${what} not found`);
