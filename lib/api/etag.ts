// Live viewers poll a run (and a growing log) every second. Each answer carries an ETag (a hash of its
// JSON) and `Cache-Control: private, no-cache`, so browsers revalidate with If-None-Match on their own
// and an unchanged answer is a 304 with no body: nothing to send, parse or re-render.
import { createHash } from "node:crypto";
import { NextResponse } from "next/server";

export function jsonWithEtag(request: Request, body: unknown): Response {
  const text = JSON.stringify(body);
  const etag = `"${createHash("sha1").update(text).digest("base64url")}"`;
  const headers = { etag, "cache-control": "private, no-cache" };
  const asked = request.headers.get("if-none-match");
  if (asked?.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag))
    return new Response(null, { status: 304, headers });
  return new NextResponse(text, { status: 200, headers: { ...headers, "content-type": "application/json" } });
}
