// Serving a full log as text/plain, streamed from disk (never read into memory whole), never as HTML.
import fs from "node:fs";
import { Readable } from "node:stream";
import type { LogLocation } from "../services/logs";

export function logResponse(log: LogLocation, options: { download: boolean }): Response {
  if (log.live) log.live.flush();
  if (!fs.existsSync(log.path)) return new Response("", { status: 200, headers: textHeaders(log, options) });
  const stream = Readable.toWeb(fs.createReadStream(log.path)) as ReadableStream<Uint8Array>;
  return new Response(stream, {
    status: 200,
    headers: { ...textHeaders(log, options), "content-length": String(fs.statSync(log.path).size) },
  });
}

function textHeaders(log: LogLocation, { download }: { download: boolean }): Record<string, string> {
  const file = `${log.runId}-attempt${log.attemptN}-${log.name}.log`;
  return {
    "content-type": "text/plain; charset=utf-8",
    "x-content-type-options": "nosniff",
    "content-security-policy": "default-src 'none'; sandbox",
    "cache-control": log.isFinished ? "private, max-age=300" : "no-store",
    "content-disposition": `${download ? "attachment" : "inline"}; filename="${file}"`,
    "x-gatehouse-log-live": log.isFinished ? "0" : "1",
  };
}
