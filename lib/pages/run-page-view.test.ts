import { describe, expect, it } from "vitest";
import {
  NO_CHOICE,
  type RunPageView,
  runPageHrefOf,
  runPageSearchOf,
  runPageViewOf,
  shownAttemptOf,
  withAttempt,
  withOrder,
  withRowOpen,
} from "./run-page-view";

// A run with attempts 1 and 2.
const ATTEMPTS = [1, 2];
const viewOf = (search: string) => runPageViewOf(new URLSearchParams(search), ATTEMPTS);

describe("runPageViewOf: the attempt and open rows a run page's address asks for", () => {
  it.each<[string, RunPageView]>([
    ["", NO_CHOICE],
    ["?attempt=1", { attempt: 1, open: [] }],
    ["?attempt=2", { attempt: 2, open: [] }],
    ["?attempt=1&open=unit", { attempt: 1, open: ["unit"] }],
    ["?open=unit,lint", { attempt: null, open: ["unit", "lint"] }],
    // As URLSearchParams would write it, and given once per row.
    ["?open=unit%2Clint", { attempt: null, open: ["unit", "lint"] }],
    ["?open=unit&open=lint", { attempt: null, open: ["unit", "lint"] }],
    // Proof rows open too.
    ["?open=_tests-added", { attempt: null, open: ["_tests-added"] }],
    ["?open=unit,unit,,lint,", { attempt: null, open: ["unit", "lint"] }],
    ["?before=3&attempt=1", { attempt: 1, open: [] }],
    // The rows grouped by kind; any other order, or two, is the order they ran.
    ["?attempt=1&order=kind", { attempt: 1, open: [], byKind: true }],
    ["?order=run", NO_CHOICE],
    ["?order=Kind", NO_CHOICE],
    ["?order=kind&order=kind", NO_CHOICE],
  ])("%s", (search, view) => expect(viewOf(search)).toEqual(view));

  // A pasted or stale address shows the page with the latest attempt, never an error.
  it.each(["0", "3", "99", "x", "", "01", "1.0", "-1", "1e0", " 1", "10000"])(
    "?attempt=%s is an attempt the run does not have: none is chosen",
    (n) => expect(viewOf(`?attempt=${encodeURIComponent(n)}&open=unit`)).toEqual({ attempt: null, open: ["unit"] }),
  );

  it("?attempt= given twice chooses none, even when both are there", () =>
    expect(viewOf("?attempt=1&attempt=2").attempt).toBeNull());

  it.each(["Unit", "un it", "../x", "__x", "_", "-x", "a".repeat(42), "<script>", "unit;lint", "ünit"])(
    "?open=%s names no row and is dropped",
    (id) => expect(viewOf(`?open=${encodeURIComponent(id)},unit`).open).toEqual(["unit"]),
  );

  it("keeps at most 100 open rows", () => {
    const ids = Array.from({ length: 150 }, (_, i) => `c${i}`);
    expect(viewOf(`?open=${ids.join(",")}`).open).toEqual(ids.slice(0, 100));
  });

  it("reads a run with no attempt yet", () =>
    expect(runPageViewOf(new URLSearchParams("?attempt=1&open=unit"), [])).toEqual({ attempt: null, open: ["unit"] }));
});

describe("runPageSearchOf: the query that says a view", () => {
  it.each<[string, RunPageView, string]>([
    ["", NO_CHOICE, ""],
    ["", { attempt: 1, open: [] }, "?attempt=1"],
    ["", { attempt: 1, open: ["unit", "lint"] }, "?attempt=1&open=unit,lint"],
    ["", { attempt: null, open: ["_tests-added"] }, "?open=_tests-added"],
    // What it replaces is gone (a mistyped attempt among it); other parameters stay, first.
    ["?attempt=99&open=x", { attempt: 2, open: [] }, "?attempt=2"],
    ["?open=unit&attempt=1", NO_CHOICE, ""],
    ["?attempt=1&utm=a%20b", { attempt: 2, open: ["unit"] }, "?utm=a+b&attempt=2&open=unit"],
    // An id no row has is never written.
    ["", { attempt: null, open: ["unit", "a&b=c"] }, "?open=unit"],
    // …and when none is left, no empty "open=" is written either.
    ["", { attempt: 1, open: ["a&b=c"] }, "?attempt=1"],
    ["", { attempt: null, open: ["../x"] }, ""],
    ["?order=kind", { attempt: 1, open: ["unit"], byKind: true }, "?attempt=1&open=unit&order=kind"],
    ["?order=kind&attempt=1", { attempt: 1, open: [] }, "?attempt=1"],
  ])("%s with %j is %s", (search, view, expected) => expect(runPageSearchOf(search, view)).toBe(expected));

  it.each(["", "?attempt=1", "?attempt=2&open=unit,lint", "?open=_tests-added,unit", "?open=unit&order=kind"])(
    "%s reads back as it was written",
    (search) => expect(runPageSearchOf("", viewOf(search))).toBe(search),
  );
});

describe("choosing an attempt and opening rows", () => {
  it("shows the attempt chosen, else the latest", () => {
    expect(shownAttemptOf(NO_CHOICE, ATTEMPTS)).toBe(2);
    expect(shownAttemptOf({ attempt: 1, open: [] }, ATTEMPTS)).toBe(1);
    expect(shownAttemptOf(NO_CHOICE, [])).toBeNull();
  });

  it("another attempt starts with its rows closed; the one shown keeps them, now pinned", () => {
    const open = { attempt: null, open: ["unit"] };
    expect(withAttempt(open, 1, ATTEMPTS)).toEqual({ attempt: 1, open: [] });
    expect(withAttempt(open, 2, ATTEMPTS)).toEqual({ attempt: 2, open: ["unit"] });
    expect(withAttempt({ attempt: 1, open: ["lint"] }, 1, ATTEMPTS)).toEqual({ attempt: 1, open: ["lint"] });
  });

  it("the order is kept when another attempt is chosen, and is changed alone", () => {
    const grouped = withOrder({ attempt: 1, open: ["unit"] }, true);
    expect(grouped).toEqual({ attempt: 1, open: ["unit"], byKind: true });
    expect(withAttempt(grouped, 2, ATTEMPTS)).toEqual({ attempt: 2, open: [], byKind: true });
    expect(withOrder(grouped, false)).toStrictEqual({ attempt: 1, open: ["unit"] });
  });

  it("opens a row once, in the order opened, and closes it", () => {
    const one = withRowOpen({ attempt: 1, open: [] }, "unit", true);
    const two = withRowOpen(one, "lint", true);
    expect(two).toEqual({ attempt: 1, open: ["unit", "lint"] });
    expect(withRowOpen(two, "unit", true)).toEqual({ attempt: 1, open: ["lint", "unit"] });
    expect(withRowOpen(two, "unit", false)).toEqual({ attempt: 1, open: ["lint"] });
    expect(withRowOpen(two, "nope", false)).toEqual(two);
  });
});

describe("runPageHrefOf: the way back from a log page to its row", () => {
  it.each<[RunPageView, string]>([
    [{ attempt: 1, open: ["unit"] }, "/runs/r1?attempt=1&open=unit"],
    [{ attempt: 2, open: ["_agent"] }, "/runs/r1?attempt=2&open=_agent"],
    [{ attempt: null, open: ["unit"] }, "/runs/r1?open=unit"],
    [NO_CHOICE, "/runs/r1"],
  ])("%j → %s", (view, href) => expect(runPageHrefOf("r1", view)).toBe(href));
});
