// Who is calling a route handler: an API token (Authorization: Bearer …) or the browser's session
// cookie. A cookie-authenticated change must come from this site (no cross-site request forgery).
import { AppError } from "../errors";
import { actorFromBearer, actorFromSession } from "../services/auth";
import type { Actor } from "./actor";
import { SESSION_COOKIE } from "./tokens";
import { config, configFrom, type Env } from "../config/config";

// A cookie's value; a value that is not valid percent-encoding (e.g. "%E0%A4%A") is no session at all.
export function readCookie(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key !== name) continue;
    try {
      return decodeURIComponent(rest.join("="));
    } catch {
      return null;
    }
  }
  return null;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

// The host the client addressed. X-Forwarded-Host is anyone's to send: it counts only when
// GATEHOUSE_TRUST_PROXY=1 says a proxy in front sets it (and its first value is the client's).
export function requestHost(headers: Headers, env?: Env): string | null {
  const isTrusted = (env ? configFrom(env) : config()).isProxyTrusted;
  const forwarded = isTrusted ? headers.get("x-forwarded-host")?.split(",")[0]?.trim() : null;
  return forwarded || headers.get("host");
}

// A change sent from another site's page: its Origin names another host (or is "null"), or, with no Origin,
// its Referer does (a client that sends neither is a script, not a browser tricked into it), or the
// browser says so (Sec-Fetch-Site).
export function isCrossSite(request: Request): boolean {
  const host = requestHost(request.headers);
  const otherHost = (url: string) => {
    try {
      return new URL(url).host !== host;
    } catch {
      return true;
    }
  };
  const origin = request.headers.get("origin");
  if (origin === "null") return true;
  if (origin) return otherHost(origin);
  const referer = request.headers.get("referer");
  if (referer && otherHost(referer)) return true;
  return request.headers.get("sec-fetch-site") === "cross-site";
}

export async function resolveRequestActor(request: Request): Promise<Actor | null> {
  const authorization = request.headers.get("authorization");
  if (authorization) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) throw new AppError("unauthorized", "Authorization must be: Bearer <API token>");
    const actor = await actorFromBearer(match[1]);
    if (!actor) throw new AppError("unauthorized", "this API token is unknown or revoked");
    return actor;
  }
  const session = readCookie(request.headers.get("cookie"), SESSION_COOKIE);
  if (!session) return null;
  if (!SAFE_METHODS.has(request.method) && isCrossSite(request))
    throw new AppError(
      "forbidden",
      "cross-site request refused: changes with a session cookie must come from Gatehouse's own pages",
    );
  return actorFromSession(session);
}
