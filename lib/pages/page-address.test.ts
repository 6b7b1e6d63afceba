import { describe, expect, it } from "vitest";
import type { PageObjects } from "../services/page-objects";
import { pageObjectsOf } from "./page-address";

describe("pageObjectsOf: what a page's address names", () => {
  it.each<[string, PageObjects | null]>([
    ["/works/w1", { kind: "work", workId: "w1" }],
    ["/works/w1/checks", { kind: "work", workId: "w1" }],
    ["/works/w1/settings/proof", { kind: "work", workId: "w1", section: "proof" }],
    ["/works/w1/settings/nope", { kind: "work", workId: "w1", section: "nope" }],
    ["/works/w1/settings", { kind: "work", workId: "w1" }],
    ["/tasks/t1", { kind: "task", taskId: "t1" }],
    ["/tasks/t1/edit", { kind: "task", taskId: "t1" }],
    ["/runs/r1", { kind: "run", runId: "r1" }],
    ["/runs/r1/attempts/2/checks/unit/log", { kind: "run", runId: "r1", attempt: "2", check: "unit" }],
    ["/runs/r1/attempts/abc/checks/_agent/log", { kind: "run", runId: "r1", attempt: "abc", check: "_agent" }],
    // Not the log page: the run is all it names (Next answers the rest of the address with its own 404).
    ["/runs/r1/attempts/2", { kind: "run", runId: "r1" }],
    ["/runs/r1/attempts/2/checks/unit/log/more", { kind: "run", runId: "r1" }],
    // Decoded as the page's params are.
    ["/works/a%20b", { kind: "work", workId: "a b" }],
    ["/runs/r%2F1", { kind: "run", runId: "r/1" }],
  ])("%s", (path, expected) => expect(pageObjectsOf(path)).toEqual(expected));

  it.each(["/", "/works", "/works/", "/tasks", "/runs/", "/audit", "/settings/tokens", "/admin/users", "/signin"])(
    "%s names no object",
    (path) => expect(pageObjectsOf(path)).toBeNull(),
  );
});
