// Runs before the route, for every page request and for API requests with no body or one declared under
// 10 MB. Next holds a request it shows the proxy until its whole body has arrived (keeping at most
// proxyClientMaxBodySize of it, dropping the rest), so larger declared and chunked API bodies go straight
// to the route wrapper instead, which refuses a declared length over the cap at once and reads a chunked
// body only up to the cap:
// - a path that is not valid percent-encoding (e.g. /api/works/%E0%A4%A) is a 400, not Next's 500, and
//   so is one carrying NUL or a lone surrogate;
// - a body declared over the limit is a 413 before anything is buffered;
// - a POST to a page (only Server Actions are) must declare its length, within the action limit, and
//   come from this site (411/413/403, where Next answered a cross-site action with a 500);
// - a signed-out request for a page gets a real 307 to the sign-in page (or the first-run page), not a
//   200 whose streamed body redirects, so curl and scripts see what a browser sees;
// - a page whose address names a Work, task, run, attempt or check that is not there (or not the reader's
//   to see), an admin's page asked for by someone else, and an audit trail the reader may not read are a
//   real 404: the loading skeleton streams first, which sends 200 before the page's notFound() runs. The page
//   still draws the not-found page that says what is missing, or why it is not theirs.
import { type NextRequest, NextResponse } from "next/server";
import { textProblem } from "./lib/api/request-input";
import { isCrossSite } from "./lib/auth/request-actor";
import { SESSION_COOKIE } from "./lib/auth/tokens";
import { ACTION_BODY_LIMIT_BYTES, API_BODY_LIMIT_BYTES } from "./lib/http/security-headers";
import { actorFromSession, needsFirstAdmin } from "./lib/services/auth";
import { findMissingObject } from "./lib/services/page-objects";
import { pageObjectsOf } from "./lib/pages/page-address";
import type { Actor } from "./lib/auth/actor";

const PUBLIC_PAGES = new Set(["/signin", "/setup"]);

function refuse(status: number, code: string, path: string, message: string): NextResponse {
  return NextResponse.json(
    { error: { code, message: `${path}: ${message}`, issues: [{ path, message }] } },
    { status },
  );
}

// Not valid percent-encoding, text no id can be (NUL, a lone surrogate), or an encoded dot segment
// (%2e%2e: Next would resolve it to another route, where a POST was taken for a form action and failed).
// One that resolves to a trailing slash (/api/works/%2e%2e is /api/) never reaches here: Next answers it
// with its own 308 to the address without the slash, first.
function isMalformedPath(pathname: string): boolean {
  try {
    return pathname.split("/").some((segment) => {
      const decoded = decodeURIComponent(segment);
      return textProblem(decoded) !== null || decoded === "." || decoded === "..";
    });
  } catch {
    return true;
  }
}

// A page POST sent as a form (a Server Action without JavaScript) must parse as one: Next answered a
// malformed multipart body (no boundary, broken parts) with a 500. The body is already capped above.
async function isReadableForm(request: NextRequest): Promise<boolean> {
  const type = request.headers.get("content-type")?.toLowerCase() ?? "";
  if (!type.startsWith("multipart/form-data") && !type.startsWith("application/x-www-form-urlencoded")) return true;
  try {
    await request.clone().formData();
    return true;
  } catch {
    return false;
  }
}

function refuseBody(request: NextRequest, limit: number, needsLength: boolean): NextResponse | null {
  const length = request.headers.get("content-length");
  if (length === null)
    return needsLength ? refuse(411, "length_required", "content-length", "a request with a body must send it") : null;
  if (!/^\d+$/.test(length)) return refuse(400, "validation", "content-length", "must be a number of bytes");
  if (Number(length) > limit) return refuse(413, "too_large", "body", `at most ${limit} bytes`);
  return null;
}

// Asked of a page loaded whole: a browser's says Sec-Fetch-Dest: document, curl's says nothing. The router's
// fetches (a client-side navigation, a prefetch; Next hides their RSC header from the proxy) are left alone:
// they show the same not-found page, and a 404 would only make the router load the page again whole.
async function namesMissingObject(request: NextRequest, actor: Actor): Promise<boolean> {
  if ((request.headers.get("sec-fetch-dest") ?? "document") !== "document") return false;
  const named = pageObjectsOf(request.nextUrl.pathname, request.nextUrl.searchParams);
  return named !== null && (await findMissingObject(actor, named)) !== null;
}

export async function proxy(request: NextRequest): Promise<NextResponse> {
  const { pathname } = request.nextUrl;
  if (isMalformedPath(pathname)) return refuse(400, "validation", "path", "must be valid percent-encoded text");
  const isSafe = request.method === "GET" || request.method === "HEAD";
  if (pathname === "/api" || pathname.startsWith("/api/"))
    return (isSafe ? null : refuseBody(request, API_BODY_LIMIT_BYTES, false)) ?? NextResponse.next();
  if (!isSafe) {
    const refused = refuseBody(request, ACTION_BODY_LIMIT_BYTES, true);
    if (refused) return refused;
    if (isCrossSite(request))
      return refuse(
        403,
        "forbidden",
        "origin",
        "cross-site request refused: Server Actions must come from Gatehouse's own pages",
      );
    if (!(await isReadableForm(request))) return refuse(400, "validation", "body", "must be a well-formed form");
    return NextResponse.next();
  }
  if (PUBLIC_PAGES.has(pathname)) return NextResponse.next();
  const token = request.cookies.get(SESSION_COOKIE)?.value;
  const actor = token ? await actorFromSession(token) : null;
  if (actor)
    return (await namesMissingObject(request, actor)) ? NextResponse.next({ status: 404 }) : NextResponse.next();
  const to = request.nextUrl.clone();
  to.search = "";
  if (await needsFirstAdmin()) to.pathname = "/setup";
  else {
    const next = pathname + request.nextUrl.search;
    to.pathname = "/signin";
    if (next !== "/") to.searchParams.set("next", next);
  }
  return NextResponse.redirect(to, 307);
}

export const config = {
  matcher: [
    // Pages: everything but the API, Next's own assets and the public files (served to anyone).
    "/((?!api/|api$|_next/static|_next/image|favicon\\.ico|icon\\.svg|icon-192\\.png|icon-512\\.png|robots\\.txt|manifest\\.webmanifest).*)",
    // The API: requests without a body, and bodies declared under 10 MB.
    {
      source: "/api/:path*",
      missing: [
        { type: "header", key: "content-length" },
        { type: "header", key: "transfer-encoding" },
      ],
    },
    { source: "/api/:path*", has: [{ type: "header", key: "content-length", value: "\\d{1,7}" }] },
  ],
};
