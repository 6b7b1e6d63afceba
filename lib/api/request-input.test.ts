// The rules for untrusted request input, on their own: caps, depth, unstorable text, query numbers.
import { describe, expect, it } from "vitest";
import { isAppError } from "../errors";
import {
  intQueryParam,
  jsonDepthExceeds,
  MAX_BODY_BYTES,
  parseJsonText,
  readBodyText,
  refuseUnstorableText,
  textProblem,
  timeQueryParam,
} from "./request-input";

function refusal(fn: () => unknown): { code: string; status: number; path: string; message: string } {
  try {
    fn();
  } catch (error) {
    if (!isAppError(error)) throw error;
    return { code: error.code, status: error.status, path: error.issues[0]?.path, message: error.issues[0]?.message };
  }
  throw new Error("expected a refusal");
}

function chunkedRequest(
  chunks: number,
  chunkBytes: number,
  headers: Record<string, string> = {},
): { request: Request; pulled: () => number } {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= chunks) return controller.close();
      pulled++;
      controller.enqueue(new Uint8Array(chunkBytes).fill(0x61));
    },
  });
  const request = new Request("http://x/", { method: "POST", body, headers, duplex: "half" } as RequestInit);
  return { request, pulled: () => pulled };
}

describe("request bodies", () => {
  it("a declared Content-Length over the cap is refused before a byte is read (413)", async () => {
    const { request, pulled } = chunkedRequest(10, 1024, { "content-length": String(MAX_BODY_BYTES + 1) });
    const error = await readBodyText(request).catch((e) => e);
    expect([error.code, error.status, error.message]).toEqual([
      "too_large",
      413,
      `body: at most ${MAX_BODY_BYTES} bytes`,
    ]);
    // At most the one chunk a stream pulls ahead by itself; the reader never asked for any.
    expect(pulled()).toBeLessThanOrEqual(1);
  });

  it("a chunked body is read only up to the cap, then the stream is cancelled", async () => {
    const { request, pulled } = chunkedRequest(1000, 64 * 1024); // 64 MB on offer
    const error = await readBodyText(request).catch((e) => e);
    expect([error.code, error.status]).toEqual(["too_large", 413]);
    expect(pulled()).toBeLessThan(20);
  });

  it("a body at the cap is read whole; invalid UTF-8 is refused naming the body", async () => {
    const { request } = chunkedRequest(16, MAX_BODY_BYTES / 16);
    expect((await readBodyText(request)).length).toBe(MAX_BODY_BYTES);
    const bad = new Request("http://x/", { method: "POST", body: new Uint8Array([0x22, 0xed, 0xa0, 0x80, 0x22]) });
    const error = await readBodyText(bad).catch((e) => e);
    expect([error.code, error.message]).toEqual(["validation", "body: must be UTF-8 text"]);
  });
});

describe("JSON", () => {
  it("depth is counted without parsing, strings and escapes skipped", () => {
    expect(jsonDepthExceeds(`${"[".repeat(32)}${"]".repeat(32)}`)).toBe(false);
    expect(jsonDepthExceeds(`${"[".repeat(33)}${"]".repeat(33)}`)).toBe(true);
    expect(jsonDepthExceeds(JSON.stringify({ a: '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\\"[[[' }))).toBe(false);
    expect(refusal(() => parseJsonText("[".repeat(1_000_000)))).toMatchObject({
      status: 400,
      path: "body",
      message: "nested deeper than 32 levels",
    });
  });

  it.each([
    ['{"name":"\\ud800"}', "name", "must be valid Unicode (a lone surrogate was sent)"],
    ['{"a":[{"b":"x\\udfff"}]}', "a.0.b", "must be valid Unicode (a lone surrogate was sent)"],
    ['{"title":"a\\u0000"}', "title", "must not contain NUL characters"],
    ['{"\\ud800":1}', "(field name)", "must be valid Unicode (a lone surrogate was sent)"],
    ["{", "body", "must be valid JSON"],
  ])("%s is refused at %s", (text, path, message) => {
    expect(refusal(() => parseJsonText(text))).toEqual({ code: "validation", status: 400, path, message });
  });

  it("well-formed surrogate pairs, emoji and ordinary text pass", () => {
    expect(parseJsonText('{"name":"\\ud83d\\ude00 ok é 中"}')).toEqual({ name: "😀 ok é 中" });
    expect(textProblem("👩‍👩‍👧‍👦")).toBeNull();
    expect(() => refuseUnstorableText({ a: [1, null, true, "x"] })).not.toThrow();
  });
});

describe("query numbers", () => {
  const q = (s: string) => new URLSearchParams(s);
  it.each(["1e309", "NaN", "-1", "1.5", "99999999999999999999", "0x10", "Infinity", " 1", "0"])(
    "?before=%s is a 400 naming before",
    (value) => {
      expect(refusal(() => intQueryParam(q(`before=${value}`), "before", { min: 1, max: 2 ** 31 - 1 }))).toMatchObject({
        status: 400,
        path: "before",
        message: "must be a whole number from 1 to 2147483647",
      });
    },
  );
  it("absent or empty is undefined; in range is the number", () => {
    expect(intQueryParam(q(""), "before", { min: 1, max: 10 })).toBeUndefined();
    expect(intQueryParam(q("before="), "before", { min: 1, max: 10 })).toBeUndefined();
    expect(intQueryParam(q("before=7"), "before", { min: 1, max: 10 })).toBe(7);
  });
});

describe("query times", () => {
  const q = (s: string) => new URLSearchParams(s);
  it.each([
    "2026-02-31",
    "2026-02-29T10:00:00Z",
    "2026-13-01",
    "2026-04-31T00:00:00Z",
    "2026-00-10",
    "yesterday",
    "1e9",
  ])("?before=%s is a 400 naming before (JavaScript would read some as another day)", (value) => {
    expect(refusal(() => timeQueryParam(q(`before=${encodeURIComponent(value)}`), "before"))).toMatchObject({
      status: 400,
      path: "before",
      message: expect.stringMatching(/^must be an ISO 8601 time .* on a day the month has$/),
    });
  });
  it("absent or empty is undefined; a real day or time is that time", () => {
    expect(timeQueryParam(q(""), "before")).toBeUndefined();
    expect(timeQueryParam(q("before="), "before")).toBeUndefined();
    expect(timeQueryParam(q("before=2028-02-29"), "before")?.toISOString()).toBe("2028-02-29T00:00:00.000Z");
    const at = "2026-01-02T03:04:05.006Z";
    expect(timeQueryParam(q(`before=${at}`), "before")?.toISOString()).toBe(at);
    expect(timeQueryParam(q("before=2026-03-01T00:30:00%2B02:00"), "before")?.toISOString()).toBe(
      "2026-02-28T22:30:00.000Z",
    );
  });
});
