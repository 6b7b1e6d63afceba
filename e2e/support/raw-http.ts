// HTTP as an attacker sends it, below fetch: a declared Content-Length that is never sent in full, or a
// chunked body that keeps coming until the server answers.
import http from "node:http";

export type RawAnswer = { status: number; headers: http.IncomingHttpHeaders; body: string; bytesSent: number };

export function rawRequest(opts: {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  // Declared length: the request sends `declaredLength` in the header but only what `streamBytes` says.
  declaredLength?: number;
  // Bytes to stream (in 64 KB chunks) unless the server answers first.
  streamBytes?: number;
  chunk?: string;
}): Promise<RawAnswer> {
  const url = new URL(opts.url);
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.declaredLength !== undefined) headers["content-length"] = String(opts.declaredLength);
  else headers["transfer-encoding"] = "chunked";
  const chunk = Buffer.from((opts.chunk ?? "x").repeat(65536).slice(0, 65536));
  return new Promise((resolve, reject) => {
    let bytesSent = 0;
    let answered = false;
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method: opts.method ?? "POST", headers },
      (res) => {
        answered = true;
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (d) => (body += d));
        res.on("end", () => {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, bytesSent });
          req.destroy();
        });
      },
    );
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    req.setTimeout(30_000, () => {
      if (!answered) reject(new Error(`no answer within 30 s after ${bytesSent} bytes`));
      req.destroy();
    });
    const total = opts.streamBytes ?? 0;
    const pump = () => {
      while (!answered && bytesSent < total) {
        bytesSent += chunk.length;
        if (!req.write(chunk)) {
          req.once("drain", pump);
          return;
        }
      }
      if (!answered && opts.declaredLength === undefined) req.end();
    };
    pump();
  });
}
