// The one wrapper every Server Action goes through: who is acting (the session; Next itself refuses
// Server Action calls whose Origin is not this site), then the input, then a short body. The few
// actions taken before anyone is signed in (signing in, the first admin) use its public variant.
// Returns { data } or { error: { code, message, fieldErrors } }; throws only for bugs.
import { revalidatePath } from "next/cache";
import { unstable_rethrow } from "next/navigation";
import type { Actor } from "../auth/actor";
import { findSessionActor } from "../auth/page-actor";
import { toJson } from "../api/jsonify";
import { refuseUnstorableParams } from "../api/request-input";
import { AppError, isAppError, type ErrorCode } from "../errors";
import type { FieldIssue } from "../gates/field-issues";

export type ActionResult<T> =
  | { data: T; error?: undefined }
  | {
      data?: undefined;
      error: {
        code: ErrorCode | "internal";
        message: string;
        fieldErrors: FieldIssue[];
        details?: Record<string, unknown>;
      };
    };

// An id argument of a Server Action, as anyone can send it: text of id length that a database can store.
export function idArg(value: unknown, name: string): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 200)
    throw new AppError("validation", `${name}: must be an id`, [{ path: name, message: "must be an id" }]);
  refuseUnstorableParams({ [name]: value });
  return value;
}

// A row's button (components/ui/row-action-form): the change, then the page that lists it drawn again (the
// path and type as `revalidatePath` takes them); a refusal comes back to the row. Its answer carries no data.
export async function runRowAction(
  body: (actor: Actor) => Promise<unknown>,
  ...page: Parameters<typeof revalidatePath>
): Promise<ActionResult<null>> {
  return runAction(async (actor) => {
    await body(actor);
    revalidatePath(...page);
    return null;
  });
}

export async function runAction<T>(body: (actor: Actor) => Promise<T>): Promise<ActionResult<T>> {
  return runSafely(async () => {
    const actor = await findSessionActor();
    if (!actor) throw new AppError("unauthorized", "your session has ended: sign in again");
    return body(actor);
  });
}

// For a person not signed in yet: no actor; errors come back the same way.
export async function runPublicAction<T>(body: () => Promise<T>): Promise<ActionResult<T>> {
  return runSafely(body);
}

async function runSafely<T>(body: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    return { data: await body() };
  } catch (error) {
    // A redirect() or notFound() from the body is Next's to handle, not an error.
    unstable_rethrow(error);
    if (isAppError(error))
      return {
        error: {
          code: error.code,
          message: error.message,
          fieldErrors: error.issues,
          details: error.details ? toJson(error.details) : undefined,
        },
      };
    console.error("gatehouse: unexpected error in a Server Action", error);
    return { error: { code: "internal", message: "Something went wrong", fieldErrors: [] } };
  }
}
