import { describe, expect, it } from "vitest";
import { safeNext } from "./safe-next";

describe("safeNext: after sign-in, only paths of this site", () => {
  it.each(["/", "/works", "/runs/abc?x=1#L3", "/tasks/t1/edit?tab=checks", "/search?q=a%20b"])("keeps %s", (path) =>
    expect(safeNext(path)).toBe(path),
  );
  // Each of these, as a Location, takes a browser to another host once it strips tabs and newlines, reads a
  // backslash as a slash, or resolves dot segments.
  it.each([
    "//evil.example",
    "/\\evil.example",
    "/\t/evil.example/",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "\t//evil.example",
    " //evil.example",
    "/\\/evil.example",
    "\\\\evil.example",
    "/./\\evil.example",
    "/.//evil.example",
    "/x/..//evil.example",
    "/%2e//evil.example",
    "https://evil.example",
    "https:evil.example",
    "javascript:alert(1)",
    "/\u0000/evil.example",
    "evil",
    "",
    null,
    42,
  ])("turns %j into /", (value) => expect(safeNext(value)).toBe("/"));
});
