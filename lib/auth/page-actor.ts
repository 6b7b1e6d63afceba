// Who is looking at a page or calling a Server Action. Until accounts exist (access-control issue),
// the local operator; this is where the session cookie plugs in.
import { connection } from "next/server";
import { SYSTEM_ACTOR, type Actor } from "./actor";

export async function getPageActor(): Promise<Actor> {
  // Pages are per request (they show live data and, later, per-user data).
  await connection();
  return { ...SYSTEM_ACTOR, label: "local operator" };
}
