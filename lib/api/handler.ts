// The one wrapper every route handler goes through: refuse an oversized body before anything is read,
// resolve who is calling, parse JSON (capped, depth-bounded, unstorable text refused), run the body, map
// AppError codes to HTTP statuses. Bodies stay short; they call services and present the result.
import { NextResponse } from "next/server";
import type { Actor } from "../auth/actor";
import { AppError, isAppError } from "../errors";
import { resolveRequestActor } from "../auth/request-actor";
import { readJsonBody, refuseDeclaredLength, refuseUnstorableParams } from "./request-input";

type Params = Record<string, string | string[]>;

export type HandlerContext<P extends Params> = {
  request: Request;
  params: P;
  actor: Actor;
  // The request body parsed as JSON (400 naming "body" when it is not JSON, 413 past MAX_BODY_BYTES).
  body: () => Promise<unknown>;
};

type Result = Response | { status?: number; json: unknown };

export function apiRoute<P extends Params = Params>(
  handler: (ctx: HandlerContext<P>) => Promise<Result>,
  options: { isPublic?: boolean } = {},
) {
  return async (request: Request, context: { params: Promise<P> }): Promise<Response> => {
    try {
      refuseDeclaredLength(request.headers);
      // Routes without dynamic segments get no params.
      const params = ((await context?.params) ?? {}) as P;
      refuseUnstorableParams(params);
      const actor = options.isPublic ? null : await resolveRequestActor(request);
      if (!options.isPublic && !actor)
        throw new AppError("unauthorized", "sign in, or send an API token as Authorization: Bearer <token>");
      const result = await handler({ request, params, actor: actor as Actor, body: () => readJsonBody(request) });
      if (result instanceof Response) return result;
      return NextResponse.json(result.json, { status: result.status ?? 200 });
    } catch (error) {
      return errorResponse(error);
    }
  };
}

function errorResponse(error: unknown): Response {
  if (isAppError(error)) {
    const headers: Record<string, string> =
      error.code === "unauthorized" ? { "WWW-Authenticate": 'Bearer realm="gatehouse"' } : {};
    return NextResponse.json(
      { error: { code: error.code, message: error.message, issues: error.issues, ...(error.details ?? {}) } },
      { status: error.status, headers },
    );
  }
  console.error("gatehouse: unexpected error in a route handler", error);
  return NextResponse.json(
    { error: { code: "internal", message: "Something went wrong", issues: [] } },
    { status: 500 },
  );
}
