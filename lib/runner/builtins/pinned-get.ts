// One HTTP request of a built-in to an address that was checked first: the name is resolved once, every
// address must pass `allowed`, and the request goes to the address checked (no second lookup a rebinding
// DNS could answer differently). No proxy, no redirects followed, at most 64 KB of the answer read.
import dns from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { isLoopbackAddress } from "../../gates/builtins";

const MAX_BODY_BYTES = 64 * 1024;

export type Pinned = { address: string; family: number };
export type PinnedAnswer = { status: number; statusText: string; body: Buffer } | { error: string };

// The address to send to, or why there is none (does not resolve, or resolves somewhere not allowed).
export async function pinAddress(
  url: URL,
  allowed: (address: string) => boolean,
  refusal: string,
): Promise<Pinned | { error: string }> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: Pinned[];
  try {
    addresses = /^[\d.]+$|:/.test(host)
      ? [{ address: host, family: host.includes(":") ? 6 : 4 }]
      : await dns.lookup(host, { all: true });
  } catch (error) {
    return { error: `${host} does not resolve (${(error as NodeJS.ErrnoException).code ?? "lookup failed"})` };
  }
  const refused = addresses.find((a) => !allowed(a.address));
  if (addresses.length === 0 || refused)
    return { error: `${host} resolves to ${refused?.address ?? "nothing"}, ${refusal}` };
  return addresses[0];
}

export function requestPinned(
  url: URL,
  target: Pinned,
  opts: { method?: string; signal: AbortSignal; agentName: string },
): Promise<PinnedAnswer> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  return new Promise((resolve) => {
    const client = url.protocol === "https:" ? https : http;
    const request = client.request(
      {
        host: target.address,
        family: target.family,
        port: url.port || (url.protocol === "https:" ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        method: opts.method ?? "GET",
        headers: { host: url.host, "user-agent": opts.agentName },
        signal: opts.signal,
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
  });
}
