// The one Markdown section reader: a heading inside a fenced block is text, in every section.
import { describe, expect, it } from "vitest";
import { parseGatesFile } from ".";
import { readSections } from "./markdown";

const FENCE = "```";

describe("readSections", () => {
  it("a heading inside a code fence is not taken as a section, nor as a check", () => {
    const sections = readSections([
      "# Runbook",
      "## Notes",
      `${FENCE}md`,
      "## Code Checks",
      "### fake — not a check",
      FENCE,
      "## Code Checks",
      "### unit — Unit tests",
      `${FENCE}bash`,
      "## Proof",
      "npm test",
      FENCE,
    ]);
    expect([...sections.keys()]).toEqual(["notes", "code checks"]);
    expect(sections.get("code checks")!.map((l) => `${l.fence ?? "text"}: ${l.text}`)).toEqual([
      "text: ### unit — Unit tests",
      "open: ```bash",
      "code: ## Proof",
      "code: npm test",
      "close: ```",
    ]);
  });

  it("a fence closes only with the same character, at least as long, and nothing after it", () => {
    const lines = readSections(["## A", "````", "```", "~~~~", "```` x", "````", "after"]).get("a")!;
    expect(lines.map((l) => l.fence)).toEqual(["open", "code", "code", "code", "close", null]);
  });
});

describe("gates files in Markdown", () => {
  it("a Proof or Merge heading inside a fence of another section changes no setting", () => {
    const text = [
      "## Code Checks",
      "",
      "### unit — Unit tests",
      "",
      `${FENCE}bash`,
      "npm test",
      FENCE,
      "",
      "## Notes",
      "",
      `${FENCE}md`,
      "## Proof",
      "- require_tests: required",
      "## Merge",
      "- auto_merge: yes",
      "## Check sources",
      "- shared: `https://example.com/x.git` at `main`",
      FENCE,
    ].join("\n");
    const read = parseGatesFile(text);
    expect(read.entries.map((e) => e.check?.id)).toEqual(["unit"]);
    expect(read.proof).toBe(null);
    expect(read.checkSources).toBe(null);
    expect(read.merge).toBeUndefined();
  });

  it("the same lines outside the fence are read", () => {
    const text = [
      "## Code Checks",
      "### unit — Unit tests",
      `${FENCE}bash`,
      "npm test",
      FENCE,
      "## Proof",
      "- require_tests: required",
      "## Merge",
      "- auto_merge: yes",
    ].join("\n");
    const read = parseGatesFile(text);
    expect(read.proof).toEqual({ requireTests: "required" });
    expect(read.merge).toMatchObject({ autoMerge: true });
  });
});
