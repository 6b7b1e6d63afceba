// Cases found while testing the import formats and cannot-fail warnings (checks that cannot fail),
// kept so they stay fixed.
import { describe, expect, it } from "vitest";
import { findCannotFailWarnings } from "./cannot-fail-checks";
import { parseGatesFile, toGatesMarkdown } from "./gates-file";
import { diffSettings } from "./settings-diff";
import type { Check } from "./check-schema";

const F = "```";
const req = (command: string) => ({ command, required: true });
const only = (text: string) => {
  const r = parseGatesFile(text);
  expect(r.fileProblem).toBeNull();
  return r.entries;
};

describe("Markdown import", () => {
  it("keeps a name that contains a dash", () => {
    const [e] = only(["## Code Checks", "### e2e — Login - happy path", `${F}bash`, "npm run e2e", F].join("\n"));
    expect(e.check).toMatchObject({ id: "e2e", name: "Login - happy path" });
  });

  it("treats # and ### lines inside a fence as part of the command", () => {
    const check: Check = {
      id: "build",
      name: "Build",
      kind: "build",
      command: "## step 1\nnpm ci\n### step 2\nnpm run build",
      required: true,
    };
    expect(only(toGatesMarkdown([check])).map((e) => e.check)).toEqual([check]);
  });

  it("closes a fence only with one at least as long", () => {
    const check: Check = {
      id: "heredoc",
      name: "Heredoc",
      kind: "custom",
      command: "cat <<'EOF'\n```\nEOF",
      required: true,
    };
    expect(only(toGatesMarkdown([check])).map((e) => e.check)).toEqual([check]);
  });

  it("lists a command that comes before any ### heading instead of dropping it", () => {
    const entries = only(
      ["## Code Checks", `${F}bash`, "npm test", F, "### lint — Lint", `${F}bash`, "npm run lint", F].join("\n"),
    );
    expect(entries).toHaveLength(2);
    expect(entries[0].problems[0]).toMatch(/before the first/);
    expect(entries[1].check?.id).toBe("lint");
  });

  it("ends the section at a level-1 heading", () => {
    const entries = only(
      ["## Code Checks", "### a — A", `${F}bash`, "true", F, "# Appendix", `${F}bash`, "rm -rf /", F].join("\n"),
    );
    expect(entries.map((e) => e.check?.command)).toEqual(["true"]);
  });

  it("keeps expect_stdout with spaces or several lines through export and import", () => {
    const checks: Check[] = [
      { id: "a", name: "A", kind: "custom", command: "echo ' ok '", required: true, expectStdout: " ok " },
      { id: "b", name: "B", kind: "custom", command: "printf 'x\\ny'", required: true, expectStdout: "x\ny" },
    ];
    expect(only(toGatesMarkdown(checks)).map((e) => e.check)).toEqual(checks);
  });
});

describe("YAML import", () => {
  it("reads a file starting with a ## comment as YAML", () => {
    expect(only("## Gates for the app\ngates:\n  - npm test\n").map((e) => e.check?.command)).toEqual(["npm test"]);
  });

  it("refuses a non-text id instead of replacing it", () => {
    expect(only("gates:\n  - run: npm test\n    id: 123\n")[0].problems).toContain("id: must be text");
  });

  it("names an unquoted {TODO: …} blank in a run or as an item", () => {
    expect(only("gates:\n  - run: {TODO: fill in}\n")[0].problems).toEqual([
      expect.stringMatching(/\{TODO: …\} blank/),
    ]);
    expect(only("gates:\n  - {TODO: write the command}\n")[0].problems).toEqual([
      expect.stringMatching(/\{TODO: …\} blank/),
    ]);
    expect(parseGatesFile("gates:\n  - run: npm test {TODO: add flags}\n").fileProblem).toMatch(
      /unquoted \{TODO: …\} blank/,
    );
  });

  it("does not take a grep for TODOs or ${TODO} for a template blank", () => {
    expect(
      only("gates:\n  - \"! grep -rnE '\\\\{TODO[^}]*\\\\}' docs\"\n  - 'test -z \"${TODO}\"'\n").every((e) => e.check),
    ).toBe(true);
  });

  it("keeps a leading ! (shell negation), which YAML would read as a tag", () => {
    expect(
      only("gates:\n  - run: ! git diff --quiet HEAD\n  - ! test -f broken\n").map((e) => e.check?.command),
    ).toEqual(["! git diff --quiet HEAD", "! test -f broken"]);
  });
});

describe("cannot-fail warnings (checks that cannot fail)", () => {
  it.each(["git status --porcelain", "true; echo ok", "npm test || true # ignore"])("warns on %s", (command) => {
    expect(findCannotFailWarnings(req(command)).length).toBeGreaterThan(0);
  });

  it.each([
    'echo "$OUT" | grep -q ok',
    "ls dist | grep -q app.js",
    "git status --short | grep -q .",
    "git diff --stat | grep -q src",
  ])("does not warn on the pipeline %s (pipefail lets it fail)", (command) => {
    expect(findCannotFailWarnings(req(command))).toEqual([]);
  });
});

it("says '1 task entry', not '1 task entries'", () => {
  expect(diffSettings({ acceptanceChecks: null }, { acceptanceChecks: [{ id: "a", disabled: true }] })[0].after).toBe(
    "1 task entry",
  );
});

it("describes a task created with inherited checks (no before) without failing", () => {
  expect(diffSettings(null, { acceptanceChecks: null, maxGateAttempts: null })).toEqual([
    { path: "acceptanceChecks", change: "changed", before: "(not set)", after: "inherit the Work's defaults" },
    { path: "maxGateAttempts", change: "changed", before: "(not set)", after: "null" },
  ]);
});
