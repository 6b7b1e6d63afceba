import { describe, expect, it } from "vitest";
import { CHECK_ID_PATTERN, ZCheckList, type Check } from "./check-schema";
import { parseGatesFile, slugifyId, toGatesMarkdown, toGatesYaml, type ImportResult } from "./gates-file";

const yaml = (...lines: string[]) => `${lines.join("\n")}\n`;
const md = yaml;
const F = "```";

const checksOf = (r: ImportResult) => r.entries.map((e) => e.check);
const only = (r: ImportResult) => {
  expect(r.fileProblem).toBeNull();
  expect(r.entries).toHaveLength(1);
  return r.entries[0];
};
const onlyCheck = (r: ImportResult): Check => {
  const e = only(r);
  expect(e.problems).toEqual([]);
  expect(e.check).not.toBeNull();
  return e.check!;
};
const onlyProblems = (r: ImportResult): string[] => {
  const e = only(r);
  expect(e.check).toBeNull();
  expect(e.problems.length).toBeGreaterThan(0);
  return e.problems;
};
// Every entry is either a check or a refusal with at least one reason; never both, never neither.
const expectEachAccountedFor = (r: ImportResult) => {
  for (const e of r.entries) {
    if (e.check) expect(e.problems).toEqual([]);
    else expect(e.problems.length).toBeGreaterThan(0);
    for (const p of e.problems) expect(p.trim()).not.toBe("");
  }
};
const yamlGate = (...fieldLines: string[]) =>
  parseGatesFile(yaml("gates:", ...fieldLines.map((l, i) => (i === 0 ? `  - ${l}` : `    ${l}`))));

describe("parseGatesFile: YAML", () => {
  it("a map with every field becomes exactly that check", () => {
    const r = parseGatesFile(
      yaml(
        "gates:",
        "  - id: unit",
        "    name: Unit tests pass",
        "    kind: test",
        "    required: no",
        "    run: npm test -- --reporter=dot",
        "    timeout: 15m",
        "    expect_exit: 3",
        "    expect_stdout: all passed",
        "    cwd: packages/app",
        "    env: [API_KEY, SENTRY_DSN]",
      ),
    );
    expect(r.format).toBe("yaml");
    expect(onlyCheck(r)).toEqual({
      id: "unit",
      name: "Unit tests pass",
      kind: "test",
      required: false,
      command: "npm test -- --reporter=dot",
      timeoutSec: 900,
      expectExit: 3,
      expectStdout: "all passed",
      cwd: "packages/app",
      envPassthrough: ["API_KEY", "SENTRY_DSN"],
    });
  });

  it("bare strings are commands: required, id and name derived, kind inferred", () => {
    const r = parseGatesFile(yaml("gates:", "  - npm test", "  - npx tsc --noEmit", "  - ./scripts/smoke.sh"));
    expect(r.fileProblem).toBeNull();
    expect(checksOf(r)).toEqual([
      { id: "npm-test", name: "npm test", kind: "test", command: "npm test", required: true },
      {
        id: "npx-tsc-noemit",
        name: "npx tsc --noEmit",
        kind: "typecheck",
        command: "npx tsc --noEmit",
        required: true,
      },
      {
        id: "scripts-smoke-sh",
        name: "./scripts/smoke.sh",
        kind: "custom",
        command: "./scripts/smoke.sh",
        required: true,
      },
    ]);
    expect(r.entries.map((e) => e.label)).toEqual([
      "entry 1: npm test",
      "entry 2: npx tsc --noEmit",
      "entry 3: ./scripts/smoke.sh",
    ]);
  });

  it("a top-level list without `gates:` is accepted too", () => {
    expect(checksOf(parseGatesFile(yaml("- npm test", "- run: npm run lint")))).toEqual([
      expect.objectContaining({ id: "npm-test", command: "npm test" }),
      expect.objectContaining({ id: "npm-run-lint", command: "npm run lint", kind: "lint" }),
    ]);
  });

  it("mixed bare strings and maps keep their order", () => {
    const r = parseGatesFile(
      yaml("gates:", "  - npm run lint", "  - id: unit", "    run: npm test", "  - npm run build"),
    );
    expect(checksOf(r).map((c) => c?.id)).toEqual(["npm-run-lint", "unit", "npm-run-build"]);
  });

  it("a multi-line command keeps its lines (trailing newline dropped), named after its first line", () => {
    const c = onlyCheck(
      parseGatesFile(yaml("gates:", "  - id: e2e", "    run: |", "      npm ci", "      npx playwright test", "")),
    );
    expect(c.command).toBe("npm ci\nnpx playwright test");
    expect(c.name).toBe("npm ci");
    expect(c.kind).toBe("test");
  });

  it("a derived name is the command's first line, cut to 120 characters", () => {
    const long = `node ${"x".repeat(200)}`;
    const c = onlyCheck(parseGatesFile(yaml("gates:", `  - ${long}`)));
    expect(c.name).toBe(long.slice(0, 120));
    expect(c.command).toBe(long);
    expect(c.id).toMatch(CHECK_ID_PATTERN);
  });

  it("a name given makes the derived id", () => {
    expect(onlyCheck(yamlGate("name: Unit tests pass", "run: npm test")).id).toBe("unit-tests-pass");
  });

  describe("timeout", () => {
    it.each<[string, number]>([
      ["90", 90],
      ['"90"', 90],
      ['"90s"', 90],
      ["90s", 90],
      ["15m", 900],
      ["1h", 3600],
      ["1m30s", 90],
      ["1", 1],
    ])("timeout: %s → %i seconds", (value, sec) => {
      expect(onlyCheck(yamlGate("run: npm test", `timeout: ${value}`)).timeoutSec).toBe(sec);
    });

    it.each<[string, RegExp]>([
      ["1h30m", /^timeout: at most 3600 seconds/],
      ["7200", /^timeout: at most 3600 seconds/],
      ["0", /^timeout: at least 1 second/],
      ["1.5", /^timeout: must be a whole number of seconds/],
      ["soon", /^timeout: not a duration/],
      ['"15 minutes"', /^timeout: not a duration/],
      ["[15m]", /^timeout: not a duration/],
    ])("timeout: %s is refused with a reason", (value, reason) => {
      expect(onlyProblems(yamlGate("run: npm test", `timeout: ${value}`))).toEqual([expect.stringMatching(reason)]);
    });
  });

  describe("expect_exit / expect_stdout / required / env / cwd / kind", () => {
    it.each<[string, number]>([
      ["0", 0],
      ["1", 1],
      ['"1"', 1],
      ["255", 255],
    ])("expect_exit: %s → %i", (value, code) => {
      expect(onlyCheck(yamlGate("run: grep -rq TODO src", `expect_exit: ${value}`)).expectExit).toBe(code);
    });

    it.each<[string, RegExp]>([
      ["256", /^expect_exit: an exit code is 0–255/],
      ["-1", /^expect_exit: an exit code is 0–255/],
      ["abc", /^expect_exit: must be a whole number/],
      ["1.5", /^expect_exit: must be a whole number/],
    ])("expect_exit: %s is refused", (value, reason) => {
      expect(onlyProblems(yamlGate("run: npm test", `expect_exit: ${value}`))).toEqual([expect.stringMatching(reason)]);
    });

    it("expect_stdout is kept as written; empty is refused", () => {
      expect(onlyCheck(yamlGate("run: npm test", 'expect_stdout: "Tests: 12 passed"')).expectStdout).toBe(
        "Tests: 12 passed",
      );
      expect(onlyProblems(yamlGate("run: npm test", 'expect_stdout: ""'))).toEqual([
        expect.stringMatching(/^expect_stdout: must not be empty/),
      ]);
    });

    it.each<[string, boolean]>([
      ["yes", true],
      ["no", false],
      ["true", true],
      ["false", false],
      ["on", true],
      ["off", false],
      ['"Yes"', true],
      ['"N"', false],
    ])("required: %s → %s", (value, required) => {
      expect(onlyCheck(yamlGate("run: npm test", `required: ${value}`)).required).toBe(required);
    });

    it("required: maybe is refused", () => {
      expect(onlyProblems(yamlGate("run: npm test", "required: maybe"))).toEqual(["required: write yes or no"]);
    });

    it("env as a list, as a comma/space separated string, or as env_passthrough", () => {
      expect(onlyCheck(yamlGate("run: npm test", "env: [API_KEY]")).envPassthrough).toEqual(["API_KEY"]);
      expect(onlyCheck(yamlGate("run: npm test", "env: API_KEY, OTHER_TOKEN  THIRD")).envPassthrough).toEqual([
        "API_KEY",
        "OTHER_TOKEN",
        "THIRD",
      ]);
      expect(onlyCheck(yamlGate("run: npm test", "env_passthrough: [API_KEY]")).envPassthrough).toEqual(["API_KEY"]);
    });

    it("a platform-owned env name is refused under the file's field name", () => {
      expect(onlyProblems(yamlGate("run: npm test", "env: [DATABASE_URL]"))).toEqual([
        expect.stringMatching(/^env: .*DATABASE_URL/),
      ]);
    });

    it("a cwd leaving the checkout is refused", () => {
      expect(onlyProblems(yamlGate("run: npm test", "cwd: ../other"))).toEqual([
        expect.stringMatching(/^cwd: .*'\.\.'/),
      ]);
    });

    it("an unknown kind is refused; a known kind wins over inference", () => {
      expect(onlyProblems(yamlGate("run: npm test", "kind: unit"))).toEqual([
        expect.stringMatching(/^kind: must be one of build, test, lint, typecheck, custom/),
      ]);
      expect(onlyCheck(yamlGate("run: npm test", "kind: custom")).kind).toBe("custom");
    });
  });

  describe("entries that cannot become checks are listed, each with its reason", () => {
    it.each<[string, string[], RegExp]>([
      ["an empty command", ['run: ""'], /^empty command/],
      ["a blank command", ['run: "   "'], /^empty command/],
      ["a map without run", ["name: Unit tests"], /^empty command/],
      ["a {TODO: …} blank", ['run: "npm run {TODO: script name}"'], /\{TODO: …\} blank/],
      ["a {todo: …} blank, any case", ['run: "test -f {todo: the file}"'], /\{TODO: …\} blank/],
      ["a command that is not text", ["run: [npm, test]"], /^run: must be text/],
      ["an unknown field", ["run: npm test", "retries: 3"], /^unknown field: retries/],
      ["a bad id", ['id: "Unit Tests"', "run: npm test"], /^id: lowercase letters/],
      ["an id too long", [`id: ${"a".repeat(42)}`, "run: npm test"], /^id: .*at most 41 characters/],
      ["a timeout over an hour", ["run: npm test", "timeout: 2h"], /^timeout: at most 3600 seconds/],
      ["a name too long", [`name: ${"n".repeat(121)}`, "run: npm test"], /^name: at most 120 characters/],
    ])("%s", (_what, fieldLines, reason) => {
      const problems = onlyProblems(yamlGate(...fieldLines));
      expect(problems).toContainEqual(expect.stringMatching(reason));
    });

    it("an unknown field names the known ones", () => {
      expect(onlyProblems(yamlGate("run: npm test", "timeout_sec: 60"))[0]).toMatch(
        /unknown field: timeout_sec \(known: run, id, name, kind, required, timeout, expect_exit, expect_stdout, cwd, junit, env, proves_change, use, with, executor, hidden\)/,
      );
    });

    it("an entry with several problems lists them all", () => {
      const problems = onlyProblems(yamlGate("retries: 3", "flaky: true"));
      expect(problems).toEqual([
        expect.stringMatching(/^unknown field: retries/),
        expect.stringMatching(/^unknown field: flaky/),
        expect.stringMatching(/^empty command/),
      ]);
    });

    it.each<[string, string]>([
      ["a number", "42"],
      ["a nested list", "[npm, test]"],
      ["an empty entry", ""],
      ["a boolean", "true"],
    ])("a non-map, non-string entry (%s) is refused", (_what, value) => {
      const e = only(parseGatesFile(yaml("gates:", `  -${value ? ` ${value}` : ""}`)));
      expect(e.check).toBeNull();
      expect(e.label).toBe("entry 1");
      expect(e.problems[0]).toBe("must be a command or a map with run:");
    });

    it("nothing is silently dropped: one entry per item of the file, good ones imported", () => {
      const r = parseGatesFile(
        yaml(
          "gates:",
          "  - npm test",
          '  - run: ""',
          '  - run: "deploy --env {TODO: which env}"',
          "  - run: npm run lint",
          "    owner: alice",
          "  - run: npm run e2e",
          "    timeout: 2h",
          "  - id: Bad Id",
          "    run: make",
          "  - 42",
          "  - [a, b]",
          "  -",
          "  - id: build",
          "    run: npm run build",
        ),
      );
      expect(r.fileProblem).toBeNull();
      expect(r.entries).toHaveLength(10);
      expectEachAccountedFor(r);
      expect(r.entries.map((e) => e.check?.id ?? null)).toEqual([
        "npm-test",
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        "build",
      ]);
      expect(r.entries.map((e) => e.problems[0] ?? "")).toEqual([
        "",
        expect.stringMatching(/^empty command/),
        expect.stringMatching(/TODO/),
        expect.stringMatching(/^unknown field: owner/),
        expect.stringMatching(/^timeout: at most 3600/),
        expect.stringMatching(/^id: /),
        "must be a command or a map with run:",
        "must be a command or a map with run:",
        "must be a command or a map with run:",
        "",
      ]);
      expect(r.entries.map((e) => e.label.split(":")[0])).toEqual(
        Array.from({ length: 10 }, (_, i) => `entry ${i + 1}`),
      );
    });
  });

  describe("the file as a whole", () => {
    it("text that is not YAML", () => {
      const r = parseGatesFile("gates: [npm test\n");
      expect(r.format).toBe("yaml");
      expect(r.entries).toEqual([]);
      expect(r.fileProblem).toMatch(/^not valid YAML: /);
    });

    it.each([
      ["plain prose", "Run the tests before merging.\n"],
      ["a map without gates:", yaml("checks:", "  - npm test")],
      ["gates: with nothing under it", "gates:\n"],
      ["gates: a string", "gates: npm test\n"],
      ["a number", "42\n"],
    ])("%s → expected a list under gates:", (_what, text) => {
      const r = parseGatesFile(text);
      expect(r.entries).toEqual([]);
      expect(r.fileProblem).toMatch(/expected a list under `gates:`/);
    });

    it("an empty list under gates:", () => {
      const r = parseGatesFile("gates: []\n");
      expect(r.entries).toEqual([]);
      expect(r.fileProblem).toMatch(/empty/);
    });

    it.each(["", "   ", "\n\n\t\n"])("an empty file (%j)", (text) => {
      expect(parseGatesFile(text)).toEqual({ format: "unknown", entries: [], fileProblem: "the file is empty" });
    });
  });

  describe("ids", () => {
    it("a duplicate explicit id: the first is imported, the second is refused naming the id", () => {
      const r = parseGatesFile(
        yaml("gates:", "  - id: unit", "    run: npm test", "  - id: unit", "    run: npm run test:ci"),
      );
      expect(r.entries).toHaveLength(2);
      expect(r.entries[0].check).toEqual(expect.objectContaining({ id: "unit", command: "npm test" }));
      expect(r.entries[1].check).toBeNull();
      expect(r.entries[1].problems).toEqual([expect.stringMatching(/"unit" is used by another entry/)]);
    });

    it("derived ids are unique", () => {
      const r = parseGatesFile(yaml("gates:", "  - npm test", "  - npm test", "  - npm test"));
      expect(checksOf(r).map((c) => c?.id)).toEqual(["npm-test", "npm-test-2", "npm-test-3"]);
    });

    it("a derived id steps around an explicit id named later in the file", () => {
      const r = parseGatesFile(yaml("gates:", "  - npm test", "  - id: npm-test", "    run: npm run test:ci"));
      expect(r.entries.every((e) => e.check)).toBe(true);
      expect(checksOf(r).map((c) => c?.id)).toEqual(["npm-test-2", "npm-test"]);
    });

    it("a derived id steps around explicit ids before it, and around -2 when that is taken too", () => {
      const r = parseGatesFile(
        yaml("gates:", "  - id: npm-test", "    run: a", "  - npm test", "  - id: npm-test-2", "    run: b"),
      );
      expect(checksOf(r).map((c) => c?.id)).toEqual(["npm-test", "npm-test-3", "npm-test-2"]);
    });

    it("derived ids from long names stay valid and unique", () => {
      const name = "Check that every page of the dashboard renders without errors";
      const r = parseGatesFile(yaml("gates:", `  - name: ${name}`, "    run: a", `  - name: ${name}`, "    run: b"));
      const ids = checksOf(r).map((c) => c!.id);
      expect(new Set(ids).size).toBe(2);
      for (const id of ids) expect(id).toMatch(CHECK_ID_PATTERN);
    });

    it("the imported checks always form a valid list", () => {
      const r = parseGatesFile(
        yaml(
          "gates:",
          "  - npm test",
          "  - npm test",
          "  - id: npm-test",
          "    run: x",
          "  - name: '!!!'",
          "    run: y",
          "  - name: '???'",
          "    run: z",
        ),
      );
      const checks = checksOf(r).filter((c): c is Check => c !== null);
      expect(checks).toHaveLength(5);
      expect(ZCheckList.safeParse(checks).success).toBe(true);
      expect(checks.map((c) => c.id)).toEqual(["npm-test-2", "npm-test-3", "npm-test", "check", "check-2"]);
    });
  });

  describe("kind inference from the command", () => {
    it.each<[string, Check["kind"]]>([
      ["npm test", "test"],
      ["npx vitest run", "test"],
      ["npx jest --ci", "test"],
      ["pytest -q", "test"],
      ["go test ./...", "test"],
      ["cargo test", "test"],
      ["bundle exec rspec", "test"],
      ["npm run lint", "lint"],
      ["npx eslint .", "lint"],
      ["ruff check .", "lint"],
      ["cargo clippy -- -D warnings", "lint"],
      ["shellcheck scripts/*.sh", "lint"],
      ["npx tsc --noEmit", "typecheck"],
      ["npm run typecheck", "typecheck"],
      ["mypy src", "typecheck"],
      ["pyright", "typecheck"],
      ["npm run build", "build"],
      ["make", "build"],
      ["./scripts/check-licenses.sh", "custom"],
      ["curl -fsS localhost:3000/health", "custom"],
    ])("%j → %s", (command, kind) => {
      expect(onlyCheck(parseGatesFile(yaml("gates:", `  - ${JSON.stringify(command)}`))).kind).toBe(kind);
    });
  });
});

describe("slugifyId", () => {
  it.each<[string, string]>([
    ["Unit tests", "unit-tests"],
    ["npm test", "npm-test"],
    ["  --Hello, World!--  ", "hello-world"],
    ["snake_case_id", "snake_case_id"],
    ["npx tsc --noEmit", "npx-tsc-noemit"],
    ["!!!", "check"],
    ["", "check"],
    ["Ünïcode ümlaut", "n-code-mlaut"],
  ])("%j → %j", (text, id) => {
    expect(slugifyId(text)).toBe(id);
  });

  it("always gives a valid id, at most 41 characters, never ending in - or _", () => {
    const samples = [
      "a".repeat(100),
      `${"ab-".repeat(20)}x`,
      `${"x".repeat(40)}--tail`,
      "__x__",
      "-".repeat(50),
      "9 lives",
      "A/B/C",
      "tab\there",
    ];
    for (const s of samples) {
      const id = slugifyId(s);
      expect(id).toMatch(CHECK_ID_PATTERN);
      expect(id).not.toMatch(/[-_]$/);
    }
  });
});

describe("parseGatesFile: Markdown runbook", () => {
  const runbook = md(
    "# Release runbook",
    "",
    "## Setup",
    "",
    "### ignored — Not a check",
    `${F}bash`,
    "npm ci",
    F,
    "",
    "## Code Checks",
    "",
    "Run these before merging.",
    "",
    "### unit — Unit tests pass",
    "",
    `${F}bash`,
    "npm test",
    F,
    "",
    "### lint – Lint is clean",
    "- timeout: 5m",
    "- required: no",
    `${F}sh`,
    "npm run lint",
    F,
    "",
    "### types - Types check",
    `~~~shell`,
    "npx tsc --noEmit",
    `~~~`,
    "",
    "### Build the bundle",
    "- kind: build",
    "- expect_exit: 0",
    "- expect stdout: built in",
    "- env: API_KEY, SENTRY_DSN",
    "- cwd: web",
    `${F}bash`,
    "npm ci",
    "npm run build",
    F,
    "",
    "## Afterwards",
    "",
    "### after — Also not a check",
    `${F}bash`,
    "rm -rf dist",
    F,
  );

  it("reads each `### id — name` of the Code Checks section, and only those", () => {
    const r = parseGatesFile(runbook);
    expect(r.format).toBe("markdown");
    expect(r.fileProblem).toBeNull();
    expectEachAccountedFor(r);
    expect(checksOf(r)).toEqual([
      { id: "unit", name: "Unit tests pass", kind: "test", command: "npm test", required: true },
      { id: "lint", name: "Lint is clean", kind: "lint", command: "npm run lint", required: false, timeoutSec: 300 },
      { id: "types", name: "Types check", kind: "typecheck", command: "npx tsc --noEmit", required: true },
      {
        id: "build-the-bundle",
        name: "Build the bundle",
        kind: "build",
        command: "npm ci\nnpm run build",
        required: true,
        expectExit: 0,
        expectStdout: "built in",
        envPassthrough: ["API_KEY", "SENTRY_DSN"],
        cwd: "web",
      },
    ]);
    expect(r.entries.map((e) => e.label)).toEqual([
      "unit — Unit tests pass",
      "lint – Lint is clean",
      "types - Types check",
      "Build the bundle",
    ]);
  });

  it.each(["—", "–", "-"])("the heading separator %j splits id and name", (dash) => {
    const c = onlyCheck(
      parseGatesFile(md("## Code Checks", `### e2e ${dash} End-to-end passes`, `${F}bash`, "npx playwright test", F)),
    );
    expect(c.id).toBe("e2e");
    expect(c.name).toBe("End-to-end passes");
  });

  it("a heading without an id: the heading is the name and the id is derived", () => {
    const c = onlyCheck(
      parseGatesFile(md("## Code Checks", "### Smoke test the server", `${F}bash`, "curl -fsS localhost:3000", F)),
    );
    expect(c).toEqual(expect.objectContaining({ id: "smoke-test-the-server", name: "Smoke test the server" }));
  });

  it("an id in the heading that is not a valid id is refused", () => {
    expect(
      onlyProblems(parseGatesFile(md("## Code Checks", "### Unit Tests — Unit tests pass", `${F}bash`, "npm test", F))),
    ).toEqual([expect.stringMatching(/^id: lowercase letters/)]);
  });

  it("the section heading is matched in any case", () => {
    expect(onlyCheck(parseGatesFile(md("## code checks", "### unit — Unit", `${F}bash`, "npm test", F))).id).toBe(
      "unit",
    );
  });

  it("Windows line endings", () => {
    const c = onlyCheck(
      parseGatesFile(
        ["## Code Checks", "### unit — Unit", "- timeout: 90s", `${F}bash`, "npm ci", "npm test", F, ""].join("\r\n"),
      ),
    );
    expect(c).toEqual(
      expect.objectContaining({ id: "unit", name: "Unit", command: "npm ci\nnpm test", timeoutSec: 90 }),
    );
  });

  it.each(["bash", "sh", "shell", "zsh", "console", "shell-session", "BASH"])(
    "the fence language %s is a shell command",
    (lang) => {
      expect(
        onlyCheck(parseGatesFile(md("## Code Checks", "### unit — Unit", `${F}${lang}`, "npm test", F))).command,
      ).toBe("npm test");
    },
  );

  describe("sections that cannot become checks", () => {
    it("no fence: the reason says so (and not also 'empty command')", () => {
      const problems = onlyProblems(parseGatesFile(md("## Code Checks", "### unit — Unit", "", "Run npm test.", "")));
      expect(problems).toEqual([expect.stringMatching(/^no fenced command block/)]);
    });

    it("two fences: only the first counts", () => {
      expect(
        onlyCheck(
          parseGatesFile(md("## Code Checks", "### unit — Unit", `${F}bash`, "npm ci", F, `${F}bash`, "npm test", F)),
        ).command,
      ).toBe("npm ci");
    });

    it.each(["python", "js"])("a %s fence: the reason names the language", (lang) => {
      const problems = onlyProblems(
        parseGatesFile(md("## Code Checks", "### unit — Unit", `${F}${lang}`, "print('hi')", F)),
      );
      expect(problems).toEqual([expect.stringContaining(`“${lang}”`)]);
      expect(problems[0]).toMatch(/bash or sh/);
    });

    it("a fence without a language is refused too", () => {
      expect(onlyProblems(parseGatesFile(md("## Code Checks", "### unit — Unit", F, "npm test", F)))).toEqual([
        expect.stringMatching(/marked “nothing”/),
      ]);
    });

    it("an unclosed fence", () => {
      expect(onlyProblems(parseGatesFile(md("## Code Checks", "### unit — Unit", `${F}bash`, "npm test")))).toEqual([
        expect.stringMatching(/not closed/),
      ]);
    });

    it("an empty fence is an empty command", () => {
      expect(onlyProblems(parseGatesFile(md("## Code Checks", "### unit — Unit", `${F}bash`, F)))).toEqual([
        expect.stringMatching(/^empty command/),
      ]);
    });

    it("a {TODO: …} blank in the fence", () => {
      expect(
        onlyProblems(
          parseGatesFile(
            md("## Code Checks", "### deploy — Deploys", `${F}bash`, "./deploy.sh {TODO: environment}", F),
          ),
        ),
      ).toEqual([expect.stringMatching(/\{TODO: …\} blank/)]);
    });

    it.each<[string, RegExp]>([
      ["- owner: alice", /^unknown field: owner$/],
      ["- run: npm test", /^unknown field: run$/],
      ["- id: other", /^unknown field: id$/],
      ["- timeout: 2h", /^timeout: at most 3600/],
      ["- timeout: soon", /^timeout: not a duration/],
      ["- required: perhaps", /^required: write yes or no/],
      ["- expect_exit: 300", /^expect_exit: an exit code is 0–255/],
      ["- kind: smoke", /^kind: must be one of/],
    ])("metadata bullet %j is refused with its reason", (bullet, reason) => {
      expect(
        onlyProblems(parseGatesFile(md("## Code Checks", "### unit — Unit", bullet, `${F}bash`, "npm test", F))),
      ).toEqual([expect.stringMatching(reason)]);
    });

    it("duplicate ids in headings: the second is refused", () => {
      const r = parseGatesFile(
        md(
          "## Code Checks",
          "### unit — Unit",
          `${F}bash`,
          "npm test",
          F,
          "### unit — Unit again",
          `${F}bash`,
          "npm run test:ci",
          F,
        ),
      );
      expect(r.entries.map((e) => e.check?.id ?? e.problems[0])).toEqual([
        "unit",
        expect.stringMatching(/"unit" is used by another entry/),
      ]);
    });

    it("nothing is silently dropped: one entry per ### heading of the section", () => {
      const r = parseGatesFile(
        md(
          "## Code Checks",
          "### unit — Unit",
          `${F}bash`,
          "npm test",
          F,
          "### prose — Only words",
          "Just run the tests.",
          "### two — Two fences",
          `${F}bash`,
          "a",
          F,
          `${F}bash`,
          "b",
          F,
          "### py — Python",
          `${F}python`,
          "print(1)",
          F,
          "### todo — Blank",
          `${F}bash`,
          "{TODO: command}",
          F,
          "### meta — Unknown bullet",
          "- flaky: yes",
          `${F}bash`,
          "npm run e2e",
          F,
          "### Derived name",
          `${F}sh`,
          "make",
          F,
          "### open — Unclosed",
          `${F}bash`,
          "npm run lint",
        ),
      );
      expect(r.fileProblem).toBeNull();
      expect(r.entries).toHaveLength(8);
      expectEachAccountedFor(r);
      expect(r.entries.map((e) => (e.check ? e.check.id : e.problems[0]))).toEqual([
        "unit",
        expect.stringMatching(/^no fenced command block/),
        "two",
        expect.stringContaining("python"),
        expect.stringMatching(/TODO/),
        "unknown field: flaky",
        "derived-name",
        expect.stringMatching(/not closed/),
      ]);
    });
  });

  describe("the file as a whole", () => {
    it("a Markdown file without the Code Checks section", () => {
      const r = parseGatesFile(md("# Runbook", "## Setup", `${F}bash`, "npm ci", F));
      expect(r).toEqual({
        format: "markdown",
        entries: [],
        fileProblem: expect.stringMatching(/no “## Code Checks” section/),
      });
    });

    it("a Code Checks section without ### headings: its command is listed, not dropped", () => {
      const r = parseGatesFile(md("## Code Checks", "Run the tests.", `${F}bash`, "npm test", F));
      expect(r.entries).toHaveLength(1);
      expect(r.entries[0].check).toBeNull();
      expect(r.entries[0].problems).toEqual([expect.stringMatching(/before the first “### id — name” heading/)]);
    });

    it("a section with no fence and no ### heading is a file problem", () => {
      const r = parseGatesFile(md("## Code Checks", "Nothing here yet."));
      expect(r.entries).toEqual([]);
      expect(r.fileProblem).toMatch(/no “### id — name” headings/);
    });

    it("a file that is only a fence is read as Markdown", () => {
      expect(parseGatesFile(md(`${F}bash`, "npm test", F)).format).toBe("markdown");
    });
  });
});

describe("export: toGatesYaml / toGatesMarkdown round-trip through parseGatesFile", () => {
  const checks: Check[] = [
    { id: "unit", name: "Unit tests pass", kind: "test", command: "npm test", required: true },
    {
      id: "lint",
      name: "Lint is clean",
      kind: "lint",
      command: "npm run lint -- --max-warnings=0",
      required: false,
      timeoutSec: 90,
    },
    {
      id: "e2e",
      name: "End-to-end: login works",
      kind: "test",
      command: "npm ci\nnpx playwright install --with-deps\n  npx playwright test --grep @login",
      required: true,
      timeoutSec: 900,
      cwd: "apps/web",
      envPassthrough: ["API_KEY", "SENTRY_DSN"],
    },
    {
      id: "no-todo",
      name: "No TODO left",
      kind: "custom",
      command: "grep -rn TODO src",
      required: true,
      expectExit: 1,
      timeoutSec: 3600,
    },
    {
      id: "version",
      name: "Prints the version",
      kind: "build",
      command: "node -e 'console.log(`v${process.version}`)'",
      required: true,
      expectStdout: "v20",
      timeoutSec: 1,
    },
    {
      id: "fences",
      name: "Backtick runs",
      kind: "custom",
      command: "echo '```' && echo '````'\ntest \"`git rev-parse HEAD`\" != ''",
      required: true,
      timeoutSec: 3599,
    },
    {
      id: "not-changed",
      name: "Something changed",
      kind: "custom",
      command: "! git diff --quiet HEAD",
      required: true,
    },
    {
      id: "quotes",
      name: 'Quotes "and" colons: fine',
      kind: "custom",
      command: 'test -n "$(git status --porcelain)" # comment: yes',
      required: false,
      expectExit: 0,
    },
    { id: "yes_no", name: "yes", kind: "custom", command: "true && npm test", required: true, expectStdout: "123" },
    {
      id: "proves",
      name: "Fails without the fix",
      kind: "test",
      command: "npm test",
      required: true,
      provesChange: true,
    },
    { id: "no-proof", name: "Builds", kind: "build", command: "npm run build", required: true, provesChange: false },
    { id: "held-out", name: "Held-out suite", kind: "test", command: "npm run secret", required: true, hidden: true },
  ];

  it("toGatesYaml → parseGatesFile gives back the same checks", () => {
    const text = toGatesYaml(checks);
    expect(text).toMatch(/^gates:\n/);
    const r = parseGatesFile(text);
    expect(r.format).toBe("yaml");
    expect(r.fileProblem).toBeNull();
    expect(r.entries.map((e) => e.problems)).toEqual(checks.map(() => []));
    expect(checksOf(r)).toEqual(checks);
  });

  it("toGatesMarkdown → parseGatesFile gives back the same checks", () => {
    const text = toGatesMarkdown(checks);
    expect(text.split("\n")[0]).toBe("## Code Checks");
    const r = parseGatesFile(text);
    expect(r.format).toBe("markdown");
    expect(r.fileProblem).toBeNull();
    expect(r.entries.map((e) => e.problems)).toEqual(checks.map(() => []));
    expect(checksOf(r)).toEqual(checks);
  });

  it("YAML keeps who runs a check and whether it is hidden; `executor` is read in any case", () => {
    const agent: Check = { ...checks[0], id: "smoke", executor: "agent", command: "Open /health and confirm OK" };
    const text = toGatesYaml([agent, checks.at(-1)!]);
    expect(text).toContain("executor: agent");
    expect(text).toContain("hidden: true");
    expect(checksOf(parseGatesFile(text))).toEqual([agent, checks.at(-1)]);
    const upper = parseGatesFile("gates:\n  - run: npm test\n    executor: Agent\n    hidden: no\n");
    expect(checksOf(upper)[0]).toMatchObject({ executor: "agent", hidden: false });
    const bad = parseGatesFile("gates:\n  - run: npm test\n    executor: agent\n    hidden: yes\n");
    expect(bad.entries[0].problems).toEqual([expect.stringMatching(/^hidden: an agent check cannot be hidden/)]);
  });

  it("Markdown export writes `### id — name` headings and a fence longer than any backtick run", () => {
    const text = toGatesMarkdown([checks[0], checks[5]]);
    expect(text).toContain("### unit — Unit tests pass");
    expect(text).toContain("### fences — Backtick runs");
    expect(text).toContain("\n`````bash\n");
    expect(text).toContain("- required: yes");
    expect(text).toContain("- timeout: 3599s");
  });

  it("YAML export writes timeouts as durations and leaves unset fields out", () => {
    const text = toGatesYaml([checks[0], checks[2]]);
    expect(text).toContain("timeout: 15m");
    expect(text).not.toMatch(/expect_exit|expect_stdout/);
    expect(text.match(/cwd:/g)).toHaveLength(1);
  });

  it("each check round-trips on its own, in both shapes", () => {
    for (const c of checks) {
      expect(checksOf(parseGatesFile(toGatesYaml([c])))).toEqual([c]);
      expect(checksOf(parseGatesFile(toGatesMarkdown([c])))).toEqual([c]);
    }
  });

  it("an empty list exports to files that import no checks", () => {
    expect(parseGatesFile(toGatesYaml([])).entries).toEqual([]);
    expect(parseGatesFile(toGatesMarkdown([])).entries).toEqual([]);
  });
});

describe("the Work's proof settings in gates files", () => {
  const proof = {
    testPatterns: ["**/*.{test,spec}.*", "tests/**"],
    requireTests: "required" as const,
    protectedPaths: ["scripts/gate.sh", "**/conftest.py"],
    vacuousPolicy: "warn" as const,
    profile: "full" as const,
  };
  const checks: Check[] = [{ id: "unit", name: "Unit", kind: "test", command: "npm test", required: true }];

  it("YAML: a proof: block beside gates: round-trips", () => {
    const text = toGatesYaml(checks, { proof });
    expect(text).toContain('proof:\n  test_patterns:\n    - "**/*.{test,spec}.*"');
    const r = parseGatesFile(text);
    expect(r.proof).toEqual(proof);
    expect(r.proofProblems).toEqual([]);
    expect(checksOf(r)).toEqual(checks);
  });

  it("Markdown: a ## Proof section round-trips, globs in backticks", () => {
    const text = toGatesMarkdown(checks, { proof });
    expect(text).toContain("## Proof\n\n- test_patterns: `**/*.{test,spec}.*`, `tests/**`\n- require_tests: required");
    const r = parseGatesFile(text);
    expect(r.proof).toEqual(proof);
    expect(checksOf(r)).toEqual(checks);
  });

  it("Markdown globs without backticks are split at spaces or ', '", () => {
    const r = parseGatesFile(
      "## Code Checks\n\n### unit — Unit\n\n```bash\nnpm test\n```\n\n## Proof\n\n- test_patterns: " +
        "**/*.{test,spec}.*, spec/**\n",
    );
    expect(r.proof).toEqual({ testPatterns: ["**/*.{test,spec}.*", "spec/**"] });
  });

  it("bad settings are listed with their field, and only the good ones are kept", () => {
    const r = parseGatesFile(
      'gates:\n  - npm test\nproof:\n  protected_paths: ["../x", "ok/**"]\n  require_tests: ' +
        "always\n  vacuous_policy: off\n  colour: red\n",
    );
    expect(r.proof).toEqual({ vacuousPolicy: "off" });
    expect(r.proofProblems).toEqual([
      "proof: protected_paths 1: must stay inside the checkout: '..' is not allowed",
      "proof: require_tests: must be one of off, warn, required",
      "proof: unknown field: colour (known: test_patterns, require_tests, protected_paths, vacuous_policy, require_test_summary, profile)",
    ]);
  });

  it("the verification profile travels in the proof block and is checked", () => {
    expect(toGatesMarkdown(checks, { proof })).toContain("- profile: full");
    const r = parseGatesFile("gates:\n  - npm test\nproof:\n  profile: heavy\n");
    expect(r.proofProblems).toEqual(["proof: profile: must be one of lite, standard, full"]);
  });

  it("a file without proof settings says none", () => {
    expect(parseGatesFile("gates:\n  - npm test\n").proof).toBeNull();
    expect(toGatesYaml(checks)).not.toContain("proof");
    expect(toGatesMarkdown(checks)).not.toContain("## Proof");
  });
});

describe("the Work's check sources in gates files", () => {
  const sources = [
    { name: "gate-scripts", url: "https://git.example.com/team/gate.git", ref: "v2.1", secret: "GATE_TOKEN" },
    { name: "fixtures", url: "/srv/git/fixtures.git", ref: "0123456789abcdef0123456789abcdef01234567" },
  ];
  const checks: Check[] = [
    { id: "gate", name: "Gate", kind: "test", command: "bash {{checks_dir}}/gate-scripts/run.sh", required: true },
  ];

  it.each([
    ["YAML", toGatesYaml],
    ["Markdown", toGatesMarkdown],
  ])("%s export and import keep them", (_format, write) => {
    const text = write(checks, { checkSources: sources });
    const read = parseGatesFile(text);
    expect(read.checkSources).toEqual(sources);
    expect(read.checkSourceProblems).toEqual([]);
    expect(checksOf(read)).toEqual(checks);
  });

  it("the Markdown section reads as a person would write it", () => {
    expect(toGatesMarkdown(checks, { checkSources: sources })).toContain(
      [
        "## Check sources",
        "",
        "- gate-scripts: `https://git.example.com/team/gate.git` at `v2.1` (secret `GATE_TOKEN`)",
        "- fixtures: `/srv/git/fixtures.git` at `0123456789abcdef0123456789abcdef01234567`",
      ].join("\n"),
    );
  });

  it("a file without them leaves the Work's alone; bad entries are listed and left out", () => {
    expect(parseGatesFile(yaml("gates:", "  - npm test")).checkSources ?? null).toBeNull();
    const read = parseGatesFile(
      yaml(
        "gates:",
        "  - npm test",
        "check_sources:",
        "  - { name: gate, url: https://git.example.com/gate.git, ref: main }",
        "  - { name: evil, url: '--upload-pack=touch /tmp/x', ref: main }",
        "  - { name: bad-ref, url: /srv/x, ref: 'a..b' }",
      ),
    );
    expect(read.checkSources).toEqual([{ name: "gate", url: "https://git.example.com/gate.git", ref: "main" }]);
    expect(read.checkSourceProblems).toEqual([
      "check_sources source 2 url: must not start with '-' (git would read it as an option)",
      "check_sources source 3 ref: not a git ref: must not contain '..'",
    ]);
    const markdown = parseGatesFile(
      md(
        "## Code Checks",
        "",
        "### unit — Unit",
        "",
        `${F}bash`,
        "npm test",
        F,
        "",
        "## Check sources",
        "",
        "- gate: https://x",
      ),
    );
    expect(markdown.checkSources).toEqual([]);
    expect(markdown.checkSourceProblems).toEqual([
      'check_sources: "- gate: https://x" is not - NAME: `URL` at `REF` (secret `NAME`)',
    ]);
    expect(checksOf(markdown)).toHaveLength(1);
  });
});

describe("a check's junit glob in gates files", () => {
  const unit: Check = {
    id: "unit",
    name: "Unit tests pass",
    kind: "test",
    command: "npm test",
    required: true,
    junit: "reports/**/*.xml",
  };
  it("round-trips through YAML and Markdown (where the glob is written in backticks)", () => {
    expect(checksOf(parseGatesFile(toGatesYaml([unit])))).toEqual([unit]);
    const markdown = toGatesMarkdown([unit]);
    expect(markdown).toContain("- junit: `reports/**/*.xml`");
    expect(checksOf(parseGatesFile(markdown))).toEqual([unit]);
  });
  it("a glob that leaves the checkout is refused, naming the field", () => {
    expect(onlyProblems(yamlGate("run: npm test", "junit: ../reports/*.xml"))).toContainEqual(
      expect.stringMatching(/junit: must stay inside the checkout/),
    );
    expect(
      onlyProblems(
        parseGatesFile(
          md("## Code Checks", "", "### unit — Unit", "", "- junit: /tmp/*.xml", "", `${F}bash`, "npm test", F),
        ),
      ),
    ).toContainEqual(expect.stringMatching(/junit: must be relative to the checkout root/));
  });
});
