// The client's address, for slowing repeated wrong passwords per address. Proxy headers can be forged,
// so they count only when GATEHOUSE_TRUST_PROXY=1 says a proxy in front sets them; otherwise null (the
// per-account limit still applies).
import { config, configFrom, type Env } from "../config/config";

export function clientAddressFrom(headers: Headers, env?: Env): string | null {
  if (!(env ? configFrom(env) : config()).isProxyTrusted) return null;
  return headers.get("x-forwarded-for")?.split(",").at(-1)?.trim() || headers.get("x-real-ip") || null;
}
