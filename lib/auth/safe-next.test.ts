import { describe, expect, it } from "vitest";
import { safeNext } from "./safe-next";

describe("safeNext: after sign-in, only paths of this site", () => {
  it.each(["/", "/works", "/runs/abc?x=1#L3"])("keeps %s", (path) => expect(safeNext(path)).toBe(path));
  it.each(["//evil.example", "/\\evil.example", "https://evil.example", "evil", "", null, 42])(
    "turns %s into /",
    (value) => expect(safeNext(value)).toBe("/"),
  );
});
