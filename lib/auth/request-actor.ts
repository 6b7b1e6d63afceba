// Who is calling a route handler. Until accounts exist (access-control issue), every caller acts as the
// local operator with full rights; this is the single place where sessions and API tokens plug in.
import { SYSTEM_ACTOR, type Actor } from "./actor";

export async function resolveRequestActor(_request: Request): Promise<Actor | null> {
  return { ...SYSTEM_ACTOR, label: "local operator" };
}
