import { describe, expect, it } from "vitest";
import { answeredError, deliveryFailureReason, redirectTargetOf } from "./webhook-failure";

// Each row: what the sender recorded for a failed request, and the reason the delivery log shows beside it.
describe("deliveryFailureReason", () => {
  it.each([
    [302, "the receiver answered HTTP 302", "redirects are not followed: give the webhook the URL it redirects to"],
    [301, "the receiver answered HTTP 301", "redirects are not followed: give the webhook the URL it redirects to"],
    [307, "the receiver answered HTTP 307", "redirects are not followed: give the webhook the URL it redirects to"],
    [
      308,
      "the receiver answered HTTP 308, redirecting to https://hooks.example/new?a=1",
      "redirects are not followed: give the webhook the URL it redirects to, https://hooks.example/new?a=1",
    ],
    [404, "the receiver answered HTTP 404", "Not Found"],
    [401, "the receiver answered HTTP 401", "Unauthorized"],
    [500, "the receiver answered HTTP 500", "Internal Server Error"],
    [418, "the receiver answered HTTP 418", "only a 2xx answer counts as delivered"],
    [null, "timed out: no answer within 10 s", "timed out after 10 s without an answer"],
    [null, "timed out: no answer within 6 s", "timed out after 6 s without an answer"],
    [
      null,
      "could not deliver: ECONNREFUSED",
      "connection refused: nothing listens at that host and port (ECONNREFUSED)",
    ],
    [null, "could not deliver: ENOTFOUND", "host not found (ENOTFOUND)"],
    [
      null,
      "could not deliver: UND_ERR_SOCKET",
      "the receiver closed the connection without answering (UND_ERR_SOCKET)",
    ],
    [null, "could not deliver: HPE_INVALID_CONSTANT", "the answer was not HTTP (HPE_INVALID_CONSTANT)"],
    [
      null,
      "could not deliver: ERR_SSL_WRONG_VERSION_NUMBER",
      "the TLS handshake failed (ERR_SSL_WRONG_VERSION_NUMBER)",
    ],
    [null, "could not deliver: bad port", "that port is closed to outgoing requests (fetch's list of bad ports)"],
    [null, "could not deliver: something new", "something new"],
    [null, "the server stopped before the receiver answered", "the server stopped before the receiver answered"],
    [null, "the webhook was removed", "the webhook was removed"],
    [null, null, "no response"],
  ])("HTTP %s, recorded as %j, reads %j", (statusCode, error, reason) => {
    expect(deliveryFailureReason({ state: "failed", statusCode, error })).toBe(reason);
  });

  it.each(["delivered", "pending", "sending"])("gives no reason for a request that is %s", (state) => {
    expect(deliveryFailureReason({ state, statusCode: 200, error: null })).toBeNull();
  });
});

// A redirect's Location as the delivery log records it: resolved against the webhook's URL and written back by
// the URL parser, or nothing when it is not an http(s) URL or is too long to be worth showing.
describe("redirectTargetOf", () => {
  const hook = "https://hooks.example/gatehouse/in";
  it.each([
    ["https://elsewhere.example/hook", "https://elsewhere.example/hook"],
    ["/moved", "https://hooks.example/moved"],
    ["next", "https://hooks.example/gatehouse/next"],
    ["http://elsewhere.example/a b<i>", "http://elsewhere.example/a%20b%3Ci%3E"],
    ["javascript:alert(1)", null],
    ["ftp://files.example/x", null],
    ["http://[bad", null],
    ["", null],
    [null, null],
    [`https://elsewhere.example/${"x".repeat(300)}`, null],
    ["https://bob:hunter2@elsewhere.example/in", "https://elsewhere.example/in"],
  ])("Location %j reads %j", (location, target) => {
    expect(redirectTargetOf(location, hook)).toBe(target);
  });

  it("does not carry the webhook URL's user name and password into a relative target", () => {
    expect(redirectTargetOf("/moved", "https://ci:s3cret@hooks.example/in")).toBe("https://hooks.example/moved");
  });

  it("is written into the recorded error only when there is one, and read back by the reason", () => {
    expect(answeredError(302, null, hook)).toBe("the receiver answered HTTP 302");
    expect(answeredError(404, "/moved", hook)).toBe("the receiver answered HTTP 404");
    const error = answeredError(302, "/moved", hook);
    expect(error).toBe("the receiver answered HTTP 302, redirecting to https://hooks.example/moved");
    expect(deliveryFailureReason({ state: "failed", statusCode: 302, error })).toBe(
      "redirects are not followed: give the webhook the URL it redirects to, https://hooks.example/moved",
    );
  });
});
