// Who is calling: a malformed cookie is no session, and X-Forwarded-Host counts only behind a trusted proxy.
import { afterEach, describe, expect, it } from "vitest";
import { isCrossSite, readCookie, requestHost } from "./request-actor";

const post = (headers: Record<string, string>) => new Request("http://x/", { method: "POST", headers });

describe("readCookie", () => {
  it.each(["%E0%A4%A", "%", "%ZZ", "%ED%A0"])("a malformed value (%s) is no cookie rather than an error", (value) => {
    expect(readCookie(`gatehouse_session=${value}`, "gatehouse_session")).toBeNull();
  });
  it("reads a well-formed value among others", () => {
    expect(readCookie("a=%E0; gatehouse_session=abc%2Fdef", "gatehouse_session")).toBe("abc/def");
  });
});

describe("the cross-site check and X-Forwarded-Host", () => {
  afterEach(() => {
    delete process.env.GATEHOUSE_TRUST_PROXY;
  });

  it("without GATEHOUSE_TRUST_PROXY, a forged X-Forwarded-Host cannot make another origin same-site", () => {
    const forged = post({ host: "gatehouse.local", origin: "http://evil.example", "x-forwarded-host": "evil.example" });
    expect(requestHost(forged.headers, {})).toBe("gatehouse.local");
    expect(isCrossSite(forged)).toBe(true);
    expect(isCrossSite(post({ host: "gatehouse.local", origin: "http://gatehouse.local" }))).toBe(false);
  });

  it("with GATEHOUSE_TRUST_PROXY=1, the proxy's X-Forwarded-Host (its first value) is the host", () => {
    process.env.GATEHOUSE_TRUST_PROXY = "1";
    const viaProxy = post({
      host: "127.0.0.1:3000",
      origin: "https://gatehouse.example",
      "x-forwarded-host": "gatehouse.example, internal",
    });
    expect(isCrossSite(viaProxy)).toBe(false);
    expect(
      isCrossSite(
        post({ host: "127.0.0.1:3000", origin: "https://evil.example", "x-forwarded-host": "gatehouse.example" }),
      ),
    ).toBe(true);
  });
});
