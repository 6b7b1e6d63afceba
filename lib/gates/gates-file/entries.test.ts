// A gates file's problems are all listed in one reading (README: `gates lint` gives "each problem with its
// entry"): fixing one must not reveal the next, whether `gatehouse gates lint` or the settings editor reads it.
import { describe, expect, it } from "vitest";
import { parseGatesFile } from ".";

const yaml = (...lines: string[]) => `${lines.join("\n")}\n`;
const F = "```";
const problemsOf = (text: string) => parseGatesFile(text).entries.map((e) => e.problems);

describe("every problem of a gates file in one reading", () => {
  it("an unknown field, a kind the schema refuses and an id used twice are all listed at once", () => {
    const r = parseGatesFile(
      yaml(
        "gates:",
        "  - id: unit",
        "    run: npm test",
        "    kind: banana",
        "    requird: true",
        "  - id: unit",
        "    run: echo",
      ),
    );
    expect(r.entries.map((e) => e.check)).toEqual([null, null]);
    expect(r.entries.map((e) => e.problems)).toEqual([
      [
        expect.stringMatching(/^unknown field: requird \(known: run, id, /),
        "kind: must be one of build, test, lint, typecheck, custom",
      ],
      ['id: "unit" is used by another entry of this file'],
    ]);
  });

  it("a field the file format refuses and a field the schema refuses are listed together", () => {
    expect(
      problemsOf(yaml("gates:", "  - run: npm test", "    required: perhaps", "    timeout: 2h", "    cwd: ../x")),
    ).toEqual([
      [
        "required: write yes or no",
        "cwd: must stay inside the checkout: '..' is not allowed",
        "timeout: at most 3600 seconds (1 hour)",
      ],
    ]);
  });

  it("an empty or unfinished command is reported once, beside the other fields' problems", () => {
    expect(problemsOf(yaml("gates:", '  - run: ""', "    kind: banana"))).toEqual([
      ["empty command: write the shell command to run", "kind: must be one of build, test, lint, typecheck, custom"],
    ]);
    expect(problemsOf(yaml("gates:", '  - run: "deploy {TODO: env}"', "    expect_exit: 300"))).toEqual([
      ["a {TODO: …} blank is left in the command: fill it in first", "expect_exit: an exit code is 0–255"],
    ]);
  });

  it("an id that is not a valid id is refused for what it is, not also as a duplicate", () => {
    expect(
      problemsOf(yaml("gates:", "  - id: Unit Tests", "    run: npm test", "  - id: Unit Tests", "    run: echo")),
    ).toEqual([[expect.stringMatching(/^id: lowercase letters/)], [expect.stringMatching(/^id: lowercase letters/)]]);
  });

  it("a refused runbook entry's id still counts: the heading that repeats it is told so in the same reading", () => {
    const text = yaml(
      "## Code Checks",
      "### unit — Unit",
      "- kind: banana",
      `${F}bash`,
      "npm test",
      F,
      "### unit — Unit again",
      `${F}bash`,
      "npm run test:ci",
      F,
    );
    expect(problemsOf(text)).toEqual([
      ["kind: must be one of build, test, lint, typecheck, custom"],
      ['id: "unit" is used by another entry of this file'],
    ]);
  });

  it("a refused entry keeps its derived id, so fixing it does not rename the checks after it", () => {
    const before = parseGatesFile(yaml("gates:", "  - run: npm test", "    kind: banana", "  - npm test"));
    const after = parseGatesFile(yaml("gates:", "  - run: npm test", "    kind: test", "  - npm test"));
    expect(before.entries[1].check?.id).toBe("npm-test-2");
    expect(after.entries.map((e) => e.check?.id)).toEqual(["npm-test", "npm-test-2"]);
  });
});
