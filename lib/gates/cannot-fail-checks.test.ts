import { describe, expect, it } from "vitest";
import { findCannotFailWarnings, type CannotFailWarning } from "./cannot-fail-checks";

type Input = Parameters<typeof findCannotFailWarnings>[0];
const required = (command: string, extra: Partial<Input> = {}): Input => ({ command, required: true, ...extra });

const ALWAYS = /always exits 0/;
const PRINTS = /only prints/;
const SWALLOWS = /\|\| true/;

function expectUseful(warnings: CannotFailWarning[]) {
  expect(warnings.length).toBeGreaterThan(0);
  for (const w of warnings) {
    expect(w.reason.trim().length).toBeGreaterThan(10);
    expect(w.instead.trim().length).toBeGreaterThan(5);
  }
}

describe("findCannotFailWarnings: commands that cannot fail, on a required check", () => {
  it.each<[string, RegExp]>([
    ["true", ALWAYS],
    [":", ALWAYS],
    ["exit 0", ALWAYS],
    ["exit  0", ALWAYS],
    ["exit", ALWAYS],
    ["/bin/true", ALWAYS],
    ["/usr/bin/true", ALWAYS],
    ["  true  ", ALWAYS],
    ["true\ntrue", ALWAYS],
    ["# nothing to check yet\ntrue", ALWAYS],
  ])("%j warns that it always passes", (command, reason) => {
    const warnings = findCannotFailWarnings(required(command));
    expectUseful(warnings);
    expect(warnings[0].reason).toMatch(reason);
    expect(warnings[0].reason).toMatch(/never fail/);
    expect(warnings[0].instead).toMatch(/npm test/);
  });

  it("names the command in the reason", () => {
    expect(findCannotFailWarnings(required("/bin/true"))[0].reason).toContain('"/bin/true"');
  });

  it.each([
    "echo done",
    'echo "all good"',
    "printf 'ok\\n'",
    "echo",
    "echo a; echo b",
    "echo building && echo built",
    "echo one\necho two",
    "set -euo pipefail\necho checking",
  ])("%j warns that it only prints", (command) => {
    const warnings = findCannotFailWarnings(required(command));
    expectUseful(warnings);
    expect(warnings).toHaveLength(1);
    expect(warnings[0].reason).toMatch(PRINTS);
    expect(warnings[0].instead).toMatch(/npm test|test -f/);
  });

  it.each(["git status", "git status --short", "git  status -sb"])(
    '%j warns and suggests test -n "$(git status --porcelain)"',
    (command) => {
      const warnings = findCannotFailWarnings(required(command));
      expectUseful(warnings);
      expect(warnings).toHaveLength(1);
      expect(warnings[0].reason).toMatch(/git status/);
      expect(warnings[0].reason).toMatch(/never fails/);
      expect(warnings[0].instead).toContain('test -n "$(git status --porcelain)"');
    },
  );

  it.each(["git diff --stat", "git diff main --stat", "git diff --stat HEAD~1"])(
    "%j warns and suggests git diff --quiet",
    (command) => {
      const warnings = findCannotFailWarnings(required(command));
      expectUseful(warnings);
      expect(warnings).toHaveLength(1);
      expect(warnings[0].reason).toMatch(/git diff --stat/);
      expect(warnings[0].instead).toMatch(/git diff --quiet/);
    },
  );

  it.each(["ls", "ls dist", "ls -la build/"])("%j warns that ls proves nothing about the files", (command) => {
    const warnings = findCannotFailWarnings(required(command));
    expectUseful(warnings);
    expect(warnings).toHaveLength(1);
    expect(warnings[0].reason).toMatch(/^ls /);
    expect(warnings[0].instead).toMatch(/test -f/);
  });

  it.each([
    "npm test || true",
    "npm test ||true",
    "npm test; true",
    "npm test ;true",
    "npm test || :",
    "npm test; :",
    "npm test || exit 0",
    "npm test; exit 0",
    "npm test || true   ",
    "npm run lint\nnpm test || true",
  ])("%j warns that the final swallow turns every failure into a pass", (command) => {
    const warnings = findCannotFailWarnings(required(command));
    expectUseful(warnings);
    expect(warnings).toHaveLength(1);
    expect(warnings[0].reason).toMatch(SWALLOWS);
    expect(warnings[0].reason).toMatch(/every failure into a pass/);
    expect(warnings[0].instead).toMatch(/not required/);
  });

  it("a command that cannot fail and also swallows gets both warnings", () => {
    const warnings = findCannotFailWarnings(required("true; true"));
    expect(warnings.map((w) => w.reason)).toEqual([expect.stringMatching(ALWAYS), expect.stringMatching(SWALLOWS)]);
  });

  it("an explicit expectExit 0 is the same as the default", () => {
    expect(findCannotFailWarnings(required("true", { expectExit: 0 }))[0].reason).toMatch(ALWAYS);
  });
});

describe("findCannotFailWarnings: real commands do not warn", () => {
  it.each([
    "npm test",
    "npx vitest run",
    'test -n "$(git status --porcelain)"',
    'test -z "$(git status --porcelain)"',
    "git status --porcelain --untracked-files=no | grep -q .",
    "git diff --quiet",
    "! git diff --quiet HEAD",
    "ls dist && test -f dist/a.js",
    "test -f dist/app.js",
    "echo building; npm run build",
    "echo 'linting…' && npm run lint",
    "set -e\nnpm test",
    "npm test && true",
    "exit 1",
    "truecolor-check",
    "lsof -i :3000",
    "echoserver --selftest",
    "npm run build && git diff --exit-code",
    "true && npm test",
  ])("%j", (command) => {
    expect(findCannotFailWarnings(required(command))).toEqual([]);
  });

  it("an empty or blank command gives no cannot-fail warning (the schema reports it)", () => {
    expect(findCannotFailWarnings(required(""))).toEqual([]);
    expect(findCannotFailWarnings(required("   \n "))).toEqual([]);
  });
});

describe("findCannotFailWarnings: when it stays quiet on commands that cannot fail", () => {
  const cannotFail = [
    "true",
    ":",
    "exit 0",
    "/bin/true",
    "echo done",
    "printf x",
    "git status",
    "git diff --stat",
    "ls",
    "npm test || true",
    "npm test; true",
    "npm test || :",
  ];

  it.each(cannotFail)("non-required %j never warns", (command) => {
    expect(findCannotFailWarnings({ command, required: false })).toEqual([]);
  });

  it.each(cannotFail)("%j with expectStdout does not warn (the output decides)", (command) => {
    expect(findCannotFailWarnings(required(command, { expectStdout: "ok" }))).toEqual([]);
  });

  it.each(["exit 0", "true", ":", "echo done", "git status", "git diff --stat", "ls dist"])(
    "%j with expectExit 1 does not warn that it always passes",
    (command) => {
      const warnings = findCannotFailWarnings(required(command, { expectExit: 1 }));
      expect(warnings).toEqual([]);
    },
  );

  it("the same command warns again once it becomes required", () => {
    expect(findCannotFailWarnings({ command: "true", required: false })).toEqual([]);
    expect(findCannotFailWarnings({ command: "true", required: true })).toHaveLength(1);
  });
});
