// Who is looking at a page or calling a Server Action, from the session cookie. Pages send people
// without a session to sign in (or, on an empty database, to create the first admin).
import { cookies } from "next/headers";
import { cache } from "react";
import { redirect } from "next/navigation";
import { actorFromSession, needsFirstAdmin } from "../services/auth";
import type { Actor } from "./actor";
import { SESSION_COOKIE } from "./tokens";

// Asked by the layouts, the page and its parts alike: looked up once a request (React's request cache).
export const findSessionActor = cache(async (): Promise<Actor | null> => {
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  return token ? actorFromSession(token) : null;
});

export async function getPageActor(): Promise<Actor> {
  const actor = await findSessionActor();
  if (actor) return actor;
  redirect((await needsFirstAdmin()) ? "/setup" : "/signin");
}
