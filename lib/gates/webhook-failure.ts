// Why a webhook request did not count as delivered, in words a lead acts on: the sender records the status a
// receiver answered or the network error it got (lib/runner/webhook-sender.ts); this turns both into a reason.
// Read at display time, so requests logged before it read the same way. Nothing a receiver sent is quoted but
// a redirect's target, and only as a parsed http(s) URL (redirectTargetOf).

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  408: "Request Timeout",
  410: "Gone",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  501: "Not Implemented",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

// Network errors by the code Node's fetch gives them.
const NETWORK_TEXT: Record<string, string> = {
  ECONNREFUSED: "connection refused: nothing listens at that host and port",
  ECONNRESET: "the receiver reset the connection",
  UND_ERR_SOCKET: "the receiver closed the connection without answering",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "the host name could not be looked up",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ETIMEDOUT: "the connection timed out",
  UND_ERR_CONNECT_TIMEOUT: "the connection timed out",
  CERT_HAS_EXPIRED: "the receiver's TLS certificate has expired",
  ERR_TLS_CERT_ALTNAME_INVALID: "the receiver's TLS certificate is for another host name",
  DEPTH_ZERO_SELF_SIGNED_CERT: "the receiver's TLS certificate is not trusted (self-signed)",
  SELF_SIGNED_CERT_IN_CHAIN: "the receiver's TLS certificate is not trusted (self-signed)",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "the receiver's TLS certificate is not trusted",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "the receiver's TLS certificate is not trusted",
  "bad port": "that port is closed to outgoing requests (fetch's list of bad ports)",
};

function networkReason(what: string): string {
  const known = NETWORK_TEXT[what];
  if (known) return what === "bad port" ? known : `${known} (${what})`;
  if (what.startsWith("HPE_")) return `the answer was not HTTP (${what})`;
  if (what.startsWith("ERR_SSL_") || what === "EPROTO") return `the TLS handshake failed (${what})`;
  return what;
}

const MAX_TARGET_CHARS = 300;

// Where a redirect pointed (its Location header, resolved against the webhook's URL) as the URL parser writes
// it back — so percent-encoded, without spaces or control characters, and without a user name or password
// (a relative Location would otherwise carry the webhook URL's own) — or null when it is missing, not
// http(s) or longer than 300 characters.
export function redirectTargetOf(location: string | null, requestUrl: string): string | null {
  if (!location) return null;
  try {
    const target = new URL(location, requestUrl);
    if (target.protocol !== "http:" && target.protocol !== "https:") return null;
    target.username = "";
    target.password = "";
    return target.href.length <= MAX_TARGET_CHARS ? target.href : null;
  } catch {
    return null;
  }
}

const isRedirect = (statusCode: number) => statusCode >= 300 && statusCode < 400;

// What the sender records for an answer that is not 2xx: the status, and a redirect's target last (its
// `Location`, read by redirectTargetOf against the URL the request went to).
export function answeredError(statusCode: number, location: string | null, requestUrl: string): string {
  const target = isRedirect(statusCode) ? redirectTargetOf(location, requestUrl) : null;
  return `the receiver answered HTTP ${statusCode}${target ? `, redirecting to ${target}` : ""}`;
}

// The reason a failed request failed (null for any other state): "HTTP 302" → "redirects are not followed…",
// "could not deliver: ECONNREFUSED" → "connection refused…", "timed out: no answer within 10 s" → "timed out
// after 10 s"; anything else the sender wrote (a stopped server, a removed webhook) as it wrote it.
export function deliveryFailureReason(d: { state: string; statusCode: number | null; error: string | null }) {
  if (d.state !== "failed") return null;
  if (d.statusCode !== null) {
    if (isRedirect(d.statusCode)) {
      const target = /, redirecting to (\S+)$/.exec(d.error ?? "")?.[1];
      return `redirects are not followed: give the webhook the URL it redirects to${target ? `, ${target}` : ""}`;
    }
    return STATUS_TEXT[d.statusCode] ?? "only a 2xx answer counts as delivered";
  }
  const error = d.error ?? "";
  const timeout = /no answer within ([\d.]+) s/.exec(error);
  if (timeout) return `timed out after ${timeout[1]} s without an answer`;
  const network = /^could not deliver: (.+)$/.exec(error);
  if (network) return networkReason(network[1]);
  return error || "no response";
}
