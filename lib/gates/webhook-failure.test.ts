import { describe, expect, it } from "vitest";
import { deliveryFailureReason } from "./webhook-failure";

// Each row: what the sender recorded for a failed request, and the reason the delivery log shows beside it.
describe("deliveryFailureReason", () => {
  it.each([
    [302, "the receiver answered HTTP 302", "redirects are not followed: give the webhook the URL it redirects to"],
    [301, "the receiver answered HTTP 301", "redirects are not followed: give the webhook the URL it redirects to"],
    [307, "the receiver answered HTTP 307", "redirects are not followed: give the webhook the URL it redirects to"],
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
