// The client's address, for slowing repeated wrong passwords per address. Proxy headers can be forged,
// so they count only when GATEHOUSE_TRUST_PROXY=1 says a proxy in front sets them; otherwise null (the
// per-account limit still applies).
export function clientAddressFrom(
  headers: Headers,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string | null {
  if (env.GATEHOUSE_TRUST_PROXY !== "1") return null;
  return headers.get("x-forwarded-for")?.split(",").at(-1)?.trim() || headers.get("x-real-ip") || null;
}
