// Built-in checks and placeholders as the schemas see them when a check is saved: each parameter checked by
// name, unknown built-ins and placeholders refused, non-loopback hosts and runaway regexes refused.
import { describe, expect, it } from "vitest";
import { catastrophicRegexProblem, isLoopbackAddress } from "./builtins";
import { ZCheckList } from "./check-schema";
import { toFieldIssues } from "./field-issues";
import { describeJsonError } from "./json-error";
import { expandCommandPlaceholders, expandPlaceholders, PlaceholderError, placeholderProblem } from "./placeholders";

const base = { id: "out", name: "Output is valid", kind: "custom", required: true };
const issuesOf = (check: Record<string, unknown>) => {
  const parsed = ZCheckList.safeParse([{ id: "a", name: "A", kind: "test", command: "true", required: true }, check]);
  return parsed.success ? [] : toFieldIssues(parsed.error, ["checkDefaults"]);
};

describe("built-ins when saved", () => {
  it.each([
    [{ use: "json_valid", with: { path: "output.json" } }],
    [{ use: "file_exists", with: { path: "{{results_dir}}/report.md" } }],
    [{ use: "file_contains", with: { path: "report.md", strings: ["## Summary", "Total"] } }],
    [{ use: "min_words", with: { path: "report.md", count: 300 } }],
    [{ use: "no_match", with: { glob: "src/**/*.ts", pattern: "console\\.log\\(" } }],
    [{ use: "http_ok", with: { url: "http://127.0.0.1:3000/health" } }],
    [{ use: "http_ok", with: { url: "http://localhost:8080/", status: 204 } }],
    [{ use: "http_ok", with: { url: "http://[::1]:8080/" } }],
    [{ use: "json_valid", with: { path: "{{assets_dir}}/expected.json" } }],
  ])("%j is accepted", (run) => {
    expect(issuesOf({ ...base, ...run })).toEqual([]);
  });

  it.each([
    [{ use: "jsn_valid", with: { path: "a.json" } }, "checkDefaults.1.use", 'unknown built-in "jsn_valid"'],
    [{ use: "json_valid" }, "checkDefaults.1.with.path", "required: a file path"],
    [{ use: "json_valid", with: { path: "../../etc/passwd" } }, "checkDefaults.1.with.path", "'..' is not allowed"],
    [{ use: "json_valid", with: { path: "/etc/passwd" } }, "checkDefaults.1.with.path", "not absolute"],
    [{ use: "json_valid", with: { path: "a.json", mode: "strict" } }, "checkDefaults.1.with.mode", "unknown parameter"],
    [{ use: "file_contains", with: { path: "a.md", strings: [] } }, "checkDefaults.1.with.strings", "at least one"],
    [{ use: "min_words", with: { path: "a.md", count: "many" } }, "checkDefaults.1.with.count", "whole number"],
    [{ use: "no_match", with: { glob: "src/**", pattern: "(a+)+$" } }, "checkDefaults.1.with.pattern", "exponential"],
    [
      { use: "no_match", with: { glob: "src/**", pattern: "([a-z]" } },
      "checkDefaults.1.with.pattern",
      "not a regular expression",
    ],
    [{ use: "no_match", with: { pattern: "x" } }, "checkDefaults.1.with.glob", "required"],
    [{ use: "http_ok", with: { url: "http://example.com/" } }, "checkDefaults.1.with.url", "example.com is refused"],
    [{ use: "http_ok", with: { url: "http://10.0.0.1:80/" } }, "checkDefaults.1.with.url", "is refused"],
    [{ use: "http_ok", with: { url: "http://127.0.0.1.nip.io/" } }, "checkDefaults.1.with.url", "is refused"],
    [{ use: "http_ok", with: { url: "file:///etc/passwd" } }, "checkDefaults.1.with.url", "http:// or https://"],
    [{ use: "http_ok", with: { url: "http://localhost/", status: 99 } }, "checkDefaults.1.with.status", "100–599"],
    [{ use: "json_valid", command: "true", with: { path: "a" } }, "checkDefaults.1.use", "not both"],
    [{ command: "true", with: { path: "a" } }, "checkDefaults.1.with", "set use too"],
    [{}, "checkDefaults.1.command", "or a built-in with use"],
    [{ use: "json_valid", with: { path: "a.json" }, cwd: "sub" }, "checkDefaults.1.cwd", "not used by a built-in"],
    [
      { use: "json_valid", with: { path: "a.json" }, executor: "agent" },
      "checkDefaults.1.executor",
      "run by Gatehouse",
    ],
    [
      { use: "json_valid", with: { path: "{{output}}/a.json" } },
      "checkDefaults.1.with.path",
      "unknown placeholder {{output}}",
    ],
  ])("%j is refused at %s", (run, path, message) => {
    const issues = issuesOf({ ...base, ...run });
    expect(issues.find((i) => i.path === path)?.message, JSON.stringify(issues)).toContain(message);
  });

  it("a field error and a parameter error are reported together", () => {
    const issues = issuesOf({ ...base, name: "", use: "min_words", with: { path: "a.md" } }).map((i) => i.path);
    expect(issues).toEqual(expect.arrayContaining(["checkDefaults.1.name", "checkDefaults.1.with.count"]));
  });

  it.each([
    ["(a+)+", true],
    ["(\\w*)*$", true],
    ["(x+){2,}", true],
    ["((ab)+c)*", true],
    ["TODO|FIXME", false],
    ["console\\.log\\(", false],
    ["(ab)+", false],
    ["[(+)]+", false],
    ["\\(a+\\)+", false],
  ])("catastrophic %s: %s", (pattern, isBad) => {
    expect(catastrophicRegexProblem(pattern) !== null).toBe(isBad);
  });

  it.each([
    ["127.0.0.1", true],
    ["127.255.3.4", true],
    ["::1", true],
    ["::ffff:127.0.0.1", true],
    ["128.0.0.1", false],
    ["10.0.0.1", false],
    ["::", false],
    ["127.0.0.1.nip.io", false],
  ])("loopback %s: %s", (address, isLoopback) => {
    expect(isLoopbackAddress(address)).toBe(isLoopback);
  });
});

describe("placeholders", () => {
  const dirs = { results_dir: "/w/out dir", checks_dir: null, assets_dir: "/a/it's" };

  it("commands are refused with an unknown placeholder or a {TODO: …} blank, and saved with known ones", () => {
    expect(issuesOf({ ...base, command: "cat {{results_dir}}/x" })).toEqual([]);
    expect(issuesOf({ ...base, command: "docker inspect -f '{{.State}}' x" })).toEqual([]);
    expect(issuesOf({ ...base, command: "cat {{foo}}/x" })[0]).toEqual({
      path: "checkDefaults.1.command",
      message: "unknown placeholder {{foo}}: use {{results_dir}}, {{checks_dir}} or {{assets_dir}}",
    });
    expect(issuesOf({ ...base, command: "{TODO: the test command}" })[0].message).toContain("{TODO: …} blank");
    expect(placeholderProblem("echo ${TODO:-x}")).toBeNull();
  });

  it("expands each directory as is, or shell-quoted in a command", () => {
    expect(expandPlaceholders("{{results_dir}}/a.json", dirs)).toBe("/w/out dir/a.json");
    expect(expandPlaceholders("{{ assets_dir }}/x", dirs)).toBe("/a/it's/x");
    expect(expandCommandPlaceholders("cat {{results_dir}}/a {{assets_dir}}/b", dirs)).toBe(
      `cat '/w/out dir'/a '/a/it'\\''s'/b`,
    );
  });

  it("a directory this run does not have, an unknown name or a blank is an error that says so", () => {
    expect(() => expandPlaceholders("{{checks_dir}}/x", dirs)).toThrow(PlaceholderError);
    expect(() => expandPlaceholders("{{checks_dir}}/x", dirs)).toThrow(/no check sources/);
    expect(() => expandPlaceholders("{{nope}}", dirs)).toThrow("unknown placeholder {{nope}}");
    expect(() => expandCommandPlaceholders("run {TODO: it}", dirs)).toThrow(/TODO/);
  });
});

describe("JSON error messages", () => {
  it.each([
    ['{\n  "a": 1,\n}\n', "Unexpected token } at line 3, column 1"],
    ['{"a": tru}', "Unexpected token t at line 1, column 7"],
    ["", "Unexpected end of JSON (the file is empty) at line 1, column 1"],
    ["[1, 2", "Unexpected end of JSON at line 1, column 6"],
    ['{"a": 1} x', "Unexpected text after the JSON value at line 1, column 10"],
    ['{"a\tb": 1}', "Bad control character in string at line 1, column 4"],
    ['[1,\n\n  "x" "y"]', 'Unexpected token " at line 3, column 7'],
    ['{"a" 1}', "Unexpected token 1 at line 1, column 6"],
  ])("%j → %s", (text, message) => {
    expect(describeJsonError(text)).toBe(message);
  });

  it("survives nesting deeper than the stack", () => {
    expect(describeJsonError(`${"[".repeat(200_000)}}`)).toBe("Unexpected token } at line 1, column 200001");
  });
});
