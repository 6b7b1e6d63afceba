import { describe, expect, it } from "vitest";
import { globMatcher, ZGlob } from "./globs";
import { DEFAULT_PROTECTED_PATHS, DEFAULT_TEST_PATTERNS } from "./work-schema";

describe("globMatcher with the default testPatterns", () => {
  const isTest = globMatcher(DEFAULT_TEST_PATTERNS);
  it.each([
    ["src/title.test.ts", true],
    ["title.spec.js", true],
    ["deep/down/a.test.mjs", true],
    ["src/__tests__/title.js", true],
    ["__tests__/x/y.ts", true],
    ["test/title.js", true],
    ["tests/unit/test_title.py", true],
    ["pkg/test_title.py", true],
    ["pkg/title_test.py", true],
    ["internal/title_test.go", true],
    ["src/test/java/TitleTest.java", true],
    ["./test/a.js", true],
    ["src/title.ts", false],
    ["src/testing.ts", false],
    ["lib/test/x.js", false],
    ["contest.py", false],
    ["latest_release.go", false],
    ["README.test", false],
  ])("%s → %s", (file, expected) => {
    expect(isTest(file)).toBe(expected);
  });
});

describe("globMatcher with the default protectedPaths", () => {
  const isProtected = globMatcher(DEFAULT_PROTECTED_PATHS);
  it.each([
    ["conftest.py", true],
    ["tests/conftest.py", true],
    ["pytest.ini", true],
    ["jest.config.js", true],
    ["vitest.config.mts", true],
    [".mocharc.yml", true],
    ["sub/pytest.ini", false],
    ["src/conftest_helpers.py", false],
  ])("%s → %s", (file, expected) => {
    expect(isProtected(file)).toBe(expected);
  });

  it("an empty list matches nothing", () => {
    expect(globMatcher([])("anything")).toBe(false);
  });
});

describe("ZGlob", () => {
  const problem = (glob: unknown) => {
    const r = ZGlob.safeParse(glob);
    return r.success ? null : r.error.issues[0].message;
  };
  it.each([["**/*.test.ts"], ["scripts/gate.sh"], [".github/**"], ["src/**/{a,b}.js"], ["a[0-9].txt"], ["*"]])(
    "accepts %s",
    (glob) => {
      expect(problem(glob)).toBeNull();
    },
  );
  it.each([
    ["", "must not be empty"],
    ["../x", "must stay inside the checkout: '..' is not allowed"],
    ["a/../../b", "must stay inside the checkout: '..' is not allowed"],
    ["/etc/passwd", "must be relative to the checkout root, not absolute"],
    ["~/x", "must be relative to the checkout root, not absolute"],
    ["C:\\x", "must be relative to the checkout root, not absolute"],
    ["src/[abc", 'not a glob: missing closing: "]"'],
    ["src/{a,b", 'not a glob: missing closing: "}"'],
    ["a(b", 'not a glob: missing closing: ")"'],
    ["!x", "a leading '!' (negation) is not supported: list only what should match"],
    ["src\\x", "use '/' between folders (a backslash is not a path separator here)"],
    [" x", "must not start or end with spaces"],
    ["a\nb", "must not contain NUL or line breaks"],
    [42, "must be text (a glob such as **/*.test.ts)"],
  ])("refuses %j: %s", (glob, message) => {
    expect(problem(glob)).toBe(message);
  });
});

describe("globMatcher's compiled lists", () => {
  it("compiles a list once: asked again it is the same predicate; another list, or one past the kept few, \
still matches as its globs say", () => {
    const tests = globMatcher(["test/**", "**/*.spec.ts"]);
    expect(globMatcher(["test/**", "**/*.spec.ts"])).toBe(tests);
    const other = globMatcher(["test/**"]);
    expect(other).not.toBe(tests);
    expect(other("a/b.spec.ts")).toBe(false);
    expect(tests("a/b.spec.ts")).toBe(true);
    for (let i = 0; i < 100; i++) expect(globMatcher([`dir${i}/**`])(`./dir${i}/x.ts`)).toBe(true);
    expect(globMatcher(["test/**", "**/*.spec.ts"])("./test/a.js")).toBe(true);
    expect(globMatcher(["test/**", "**/*.spec.ts"])("src/a.js")).toBe(false);
  });
});
