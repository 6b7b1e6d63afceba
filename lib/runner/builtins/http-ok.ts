// http_ok: a GET of a URL on this machine answers the expected status (any 2xx when unset). The host was
// checked when saved; here its resolved addresses are checked again and the request goes to the address
// that was checked (no second lookup a rebinding DNS could answer differently). Redirects are not
// followed, no proxy is used, and at most 64 KB of the answer is read.
import dns from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { isLoopbackAddress, type BuiltinParams } from "../../gates/builtins";
import { expandPlaceholders, PlaceholderError } from "../../gates/placeholders";
import type { BuiltinAnswer, BuiltinIo } from "./builtin-io";

const MAX_BODY_BYTES = 64 * 1024;
const BODY_LOGGED = 2048;

export async function httpOk(p: BuiltinParams["http_ok"], io: BuiltinIo): Promise<BuiltinAnswer> {
  let url: URL;
  try {
    url = new URL(expandPlaceholders(p.url, io.dirs));
  } catch (error) {
    return {
      verdict: "error",
      message: `url: ${error instanceof PlaceholderError ? error.message : `not a URL: ${p.url}`}`,
    };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return { verdict: "error", message: `url: ${url.protocol} is not http or https` };
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: { address: string; family: number }[];
  try {
    addresses = isLoopbackAddress(host)
      ? [{ address: host, family: host.includes(":") ? 6 : 4 }]
      : await dns.lookup(host, { all: true });
  } catch (error) {
    return {
      verdict: "error",
      message: `url: ${host} does not resolve (${(error as NodeJS.ErrnoException).code ?? "lookup failed"})`,
    };
  }
  const outside = addresses.find((a) => !isLoopbackAddress(a.address));
  if (addresses.length === 0 || outside)
    return {
      verdict: "error",
      message:
        `url: ${host} resolves to ${outside?.address ?? "nothing"}, not a loopback address: only ` +
        `this machine may be checked`,
    };
  const target = addresses[0];
  io.log(`GET ${url.href} (${host} → ${target.address})`);
  const started = performance.now();
  const answer = await new Promise<{ status: number; statusText: string; body: Buffer } | { error: string }>(
    (resolve) => {
      const client = url.protocol === "https:" ? https : http;
      const request = client.request(
        {
          host: target.address,
          family: target.family,
          port: url.port || (url.protocol === "https:" ? 443 : 80),
          path: `${url.pathname}${url.search}`,
          method: "GET",
          headers: { host: url.host, "user-agent": "gatehouse-http_ok" },
          signal: io.signal,
          agent: false,
          // A loopback service's certificate is rarely one a CA signed; the host was pinned above.
          ...(url.protocol === "https:"
            ? { rejectUnauthorized: false, servername: isLoopbackAddress(host) ? undefined : host }
            : {}),
        },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on("data", (chunk: Buffer) => {
            if (size < MAX_BODY_BYTES) chunks.push(chunk.subarray(0, MAX_BODY_BYTES - size));
            size += chunk.length;
            if (size >= MAX_BODY_BYTES) response.destroy();
          });
          const done = () =>
            resolve({
              status: response.statusCode ?? 0,
              statusText: response.statusMessage ?? "",
              body: Buffer.concat(chunks),
            });
          response.on("end", done);
          response.on("close", done);
          response.on("error", done);
        },
      );
      request.on("error", (error: NodeJS.ErrnoException) =>
        resolve({
          error:
            error.code === "ECONNREFUSED"
              ? "connection refused: nothing listens there"
              : `${error.code ?? ""} ${error.message}`.trim(),
        }),
      );
      request.end();
    },
  );
  const ms = Math.round(performance.now() - started);
  if ("error" in answer) {
    io.log(answer.error);
    return { verdict: "failed", message: `GET ${url.href}: ${answer.error}` };
  }
  io.log(`${answer.status} ${answer.statusText} in ${ms} ms`);
  const body = answer.body.subarray(0, BODY_LOGGED).toString("utf8");
  if (body) io.log(body);
  const isOk = p.status === undefined ? answer.status >= 200 && answer.status < 300 : answer.status === p.status;
  const got = `${answer.status}${answer.statusText ? ` ${answer.statusText}` : ""}`;
  return isOk
    ? { verdict: "passed", message: `GET ${url.href} → ${got}` }
    : { verdict: "failed", message: `GET ${url.href} → ${got}, expected ${p.status ?? "2xx"}` };
}
