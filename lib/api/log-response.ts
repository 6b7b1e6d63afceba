// Serving a full log as text/plain, streamed from disk (never read into memory whole), never as HTML. A
// finished log carries an ETag (its size and time) and is revalidated at every read (private, no-cache):
// a browser's copy is used only once the server has checked the reader may still see it (a member removed
// from the Work reads nothing more from their cache), and an unchanged one is a 304 with no body.
import fs from "node:fs";
import { Readable } from "node:stream";
import type { LogLocation } from "../services/logs";
import { isUnchangedFor } from "./etag";

export function logResponse(request: Request, log: LogLocation, options: { download: boolean }): Response {
  if (log.live) log.live.flush();
  const stat = fs.statSync(log.path, { throwIfNoEntry: false });
  if (!stat) return new Response("", { status: 200, headers: textHeaders(log, options) });
  const etag = log.isFinished ? `"${stat.size.toString(36)}-${Math.round(stat.mtimeMs).toString(36)}"` : null;
  const headers = { ...textHeaders(log, options), ...(etag ? { etag } : {}) };
  if (etag && isUnchangedFor(request, etag)) return new Response(null, { status: 304, headers });
  const stream = Readable.toWeb(fs.createReadStream(log.path)) as ReadableStream<Uint8Array>;
  return new Response(stream, { status: 200, headers: { ...headers, "content-length": String(stat.size) } });
}

function textHeaders(log: LogLocation, { download }: { download: boolean }): Record<string, string> {
  const file = `${log.runId}-attempt${log.attemptN}-${log.name}.log`;
  return {
    "content-type": "text/plain; charset=utf-8",
    "x-content-type-options": "nosniff",
    "content-security-policy": "default-src 'none'; sandbox",
    "cache-control": log.isFinished ? "private, no-cache" : "no-store",
    "content-disposition": `${download ? "attachment" : "inline"}; filename="${file}"`,
    "x-gatehouse-log-live": log.isFinished ? "0" : "1",
  };
}
