import { describe, expect, it } from "vitest";
import type { PageObjects } from "../services/page-objects";
import { pageObjectsOf } from "./page-address";

// An address as a request carries it, its query included.
const objectsOf = (address: string) => {
  const url = new URL(address, "http://gatehouse.test");
  return pageObjectsOf(url.pathname, url.searchParams);
};

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
    // The run page's ?attempt= and ?open= are what the reader chose to look at (lib/pages/run-page-view.ts), read
    // leniently by the page: they name no object, so one the run lacks is no 404.
    ["/runs/r1?attempt=2", { kind: "run", runId: "r1" }],
    ["/runs/r1?attempt=abc&open=unit", { kind: "run", runId: "r1" }],
    ["/runs/r1?before=2", { kind: "run", runId: "r1" }],
    ["/runs/r1/attempts/2/checks/unit/log", { kind: "run", runId: "r1", attempt: "2", check: "unit" }],
    ["/runs/r1/attempts/abc/checks/_agent/log", { kind: "run", runId: "r1", attempt: "abc", check: "_agent" }],
    // Not the log page: the run is all it names (Next answers the rest of the address with its own 404).
    ["/runs/r1/attempts/2", { kind: "run", runId: "r1" }],
    ["/runs/r1/attempts/2/checks/unit/log/more", { kind: "run", runId: "r1" }],
    // ?attempt= is the run page's alone.
    ["/runs/r1/attempts/2/checks/unit/log?attempt=9", { kind: "run", runId: "r1", attempt: "2", check: "unit" }],
    ["/admin/users", { kind: "admin" }],
    ["/admin/workers", { kind: "admin" }],
    // The audit trail, its Work read as the page reads ?workId= (an empty one is no filter: the whole trail).
    ["/audit", { kind: "audit" }],
    ["/audit?workId=w1", { kind: "audit", workId: "w1" }],
    ["/audit?workId=", { kind: "audit" }],
    ["/audit?workId=w1&before=2026-01-01", { kind: "audit", workId: "w1" }],
    // Decoded as the page's params are.
    ["/works/a%20b", { kind: "work", workId: "a b" }],
    ["/runs/r%2F1", { kind: "run", runId: "r/1" }],
  ])("%s", (path, expected) => expect(objectsOf(path)).toEqual(expected));

  it.each(["/", "/works", "/works/", "/tasks", "/runs/", "/audit/x", "/settings/tokens", "/admin", "/signin"])(
    "%s names no object",
    (path) => expect(objectsOf(path)).toBeNull(),
  );
});
