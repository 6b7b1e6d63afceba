// http_ok: a GET of a URL on this machine answers the expected status (any 2xx when unset). The host was
// checked when saved; here its resolved addresses are checked again and the request goes to the address
// that was checked (no second lookup a rebinding DNS could answer differently). Redirects are not
// followed, no proxy is used, and at most 64 KB of the answer is read.
import { isLoopbackAddress, type BuiltinParams } from "../../gates/builtins";
import { expandPlaceholders, PlaceholderError } from "../../gates/placeholders";
import type { BuiltinAnswer, BuiltinIo } from "./builtin-io";
import { pinAddress, requestPinned } from "./pinned-get";

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
  const target = await pinAddress(url, isLoopbackAddress, "not a loopback address: only this machine may be checked");
  if ("error" in target) return { verdict: "error", message: `url: ${target.error}` };
  io.log(`GET ${url.href} (${host} → ${target.address})`);
  const started = performance.now();
  const answer = await requestPinned(url, target, { signal: io.signal, agentName: "gatehouse-http_ok" });
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
