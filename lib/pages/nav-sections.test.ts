import { describe, expect, it } from "vitest";
import { isInSection } from "./nav-sections";

describe("isInSection", () => {
  it("marks the inbox only on the inbox itself", () => {
    expect(isInSection("/", "/")).toBe(true);
    expect(isInSection("/works", "/")).toBe(false);
  });

  it("counts a Work's pages, its tasks and its runs as under Works", () => {
    for (const path of ["/works", "/works/w1/settings/checks", "/tasks/t1", "/runs/r1/attempts/2/checks/unit/log"])
      expect(isInSection(path, "/works"), path).toBe(true);
    expect(isInSection("/workspace", "/works")).toBe(false);
    expect(isInSection("/audit", "/works")).toBe(false);
  });

  it("matches other sections by their own prefix", () => {
    expect(isInSection("/admin/users", "/admin/users")).toBe(true);
    expect(isInSection("/admin/workers", "/admin/users")).toBe(false);
    expect(isInSection("/audit", "/audit")).toBe(true);
  });
});
