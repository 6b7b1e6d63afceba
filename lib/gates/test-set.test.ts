// The test set against the start commit's: names from the real runners' verbose output, counts without.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseRenames, passedNamesOf, shrinkOf, testSetOf } from "./test-set";
import { recogniseTests } from "./test-summary";

const fixture = (name: string) => fs.readFileSync(path.join(__dirname, "fixtures/test-output", name), "utf8");

describe("passedNamesOf", () => {
  it.each([
    ["node-test/spec-pass.txt", ["lower-cases the title", "trims spaces", "joins words with dashes"]],
    ["node-test/tap-pass.txt", ["lower-cases the title", "trims spaces", "joins words with dashes"]],
    ["mocha/pass.txt", ["lower-cases the title", "trims spaces", "joins words with dashes"]],
  ])("names the passed tests of %s", (file, names) => {
    expect(passedNamesOf(fixture(file))).toEqual(names);
  });

  it("pytest -v names each test with its file; failed and skipped ones are not passed", () => {
    const out =
      "tests/test_a.py::test_one PASSED  [ 33%]\ntests/test_a.py::test_two FAILED  [ " +
      "66%]\ntests/test_a.py::test_three SKIPPED (x) [100%]\n";
    expect(passedNamesOf(out)).toEqual(["tests/test_a.py::test_one"]);
  });

  it("a reporter that names no test: null", () => {
    expect(passedNamesOf("..F\n1 failed, 2 passed in 0.03s\n")).toBeNull();
  });
});

describe("testSetOf and shrinkOf", () => {
  const tap = fixture("node-test/tap-pass.txt");
  const whole = testSetOf({ counts: recogniseTests(tap)!.counts, output: tap, isWhole: true });
  const fewer = { ran: 2, names: ["lower-cases the title", "trims spaces"] };

  it("with names, a test that passed at the start and no longer runs is named", () => {
    expect(shrinkOf({ checkId: "unit", before: whole, after: fewer, deletesTests: false })).toEqual({
      checkId: "unit",
      vanished: ["joins words with dashes"],
      before: 3,
      after: 2,
    });
  });

  it("a cut tail names nothing: the count decides", () => {
    const cut = testSetOf({ counts: recogniseTests(tap)!.counts, output: tap, isWhole: false });
    expect(cut).toEqual({ ran: 3, names: null });
    expect(shrinkOf({ checkId: "unit", before: cut, after: { ran: 2, names: null }, deletesTests: false })).toEqual({
      checkId: "unit",
      vanished: [],
      before: 3,
      after: 2,
    });
  });

  it("the same tests, or more: no shrink; a change that deletes a test file outright is \
_tests-kept's to report", () => {
    expect(shrinkOf({ checkId: "unit", before: whole, after: whole, deletesTests: false })).toBeNull();
    expect(shrinkOf({ checkId: "unit", before: whole, after: fewer, deletesTests: true })).toBeNull();
  });

  it("per-test cases (the JUnit seam) come before the output", () => {
    const set = testSetOf({
      counts: null,
      output: null,
      isWhole: false,
      cases: [
        { name: "a", className: "suite", status: "passed" },
        { name: "b", status: "skipped" },
      ],
    });
    expect(set).toEqual({ ran: 1, names: ["suite::a"] });
  });
});

it("parseRenames reads git's -M name-status", () => {
  expect(parseRenames("R100\0test/a.test.js\0off/a.txt\0M\0src/x.js\0")).toEqual([
    { from: "test/a.test.js", to: "off/a.txt" },
  ]);
});
