// Live viewers poll a run (and a growing log) every second. Each answer carries an ETag (a hash of its
// JSON) and `Cache-Control: private, no-cache`, so browsers revalidate with If-None-Match on their own
// and an unchanged answer is a 304 with no body: nothing to send, parse or re-render.
import { NextResponse } from "next/server";
import { etagOf } from "./run-json-cache";

export function jsonWithEtag(request: Request, body: unknown): Response {
  const text = JSON.stringify(body);
  return textWithEtag(request, { text, etag: etagOf(text) });
}

// JSON already serialised, with its ETag (lib/api/run-json-cache.ts keeps both per run).
export function textWithEtag(request: Request, json: { text: string; etag: string }): Response {
  const headers = { etag: json.etag, "cache-control": "private, no-cache" };
  if (isUnchangedFor(request, json.etag)) return new Response(null, { status: 304, headers });
  return new NextResponse(json.text, { status: 200, headers: { ...headers, "content-type": "application/json" } });
}

// Whether the client's copy (If-None-Match, any of its tags, weak or strong) is the one `etag` names; `*`
// matches whatever the resource is now (HTTP: any current representation).
export function isUnchangedFor(request: Request, etag: string): boolean {
  const asked = request.headers.get("if-none-match");
  if (asked?.trim() === "*") return true;
  return !!asked?.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}
