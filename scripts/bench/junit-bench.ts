// JUnit parsing (`npm run bench -- junit`): a 5 MB report with 10,000 tests (1 in 20 failing, each failure
// with a message and a 30-line trace), read from a checkout and parsed as a check's reports are
// (lib/runner/junit-reports.ts: the walk, the capped read, the DOCTYPE and count checks, the parse, the
// per-test records), against fast-xml-parser's bare parse of the same text.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { XMLParser } from "fast-xml-parser";
import { readJunitReports } from "../../lib/runner/junit-reports";
import type { BenchRow } from "./runner-bench";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const TESTS = 10_000;

const escapeXml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");

// Shaped like pytest's and vitest's reports: suites of 100 tests, a class per suite, times on every case.
function makeReport(): string {
  const parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="bench" tests="10000">'];
  for (let s = 0; s < TESTS / 100; s++) {
    parts.push(`  <testsuite name="suite ${s}" file="tests/module_${s}/test_things.py" tests="100">`);
    for (let t = 0; t < 100; t++) {
      const name = `test_behaviour_${s}_${t}_keeps_the_contract_when_the_input_is_large_and_the_cache_is_cold`;
      const head =
        `    <testcase classname="tests.module_${s}.test_things.TestThings${s}" name="` +
        `${name}" time="0.00${t % 10}">`;
      if ((s * 100 + t) % 20 !== 0) {
        // Padding comparable to real reports' captured output, so 10,000 tests weigh about 5 MB.
        parts.push(`${head}<system-out>${"collected output line ".repeat(3)}</system-out></testcase>`);
        continue;
      }
      const trace = Array.from(
        { length: 30 },
        (_, i) => `  File "tests/module_${s}/test_things.py", line ${i + 10}, in ${name}\n    assert value == expected`,
      ).join("\n");
      parts.push(
        `${head}<failure message="` +
          `${escapeXml(`AssertionError: assert <Value ${t}> == 'expected & more'`)}">` +
          `${escapeXml(trace)}</failure></testcase>`,
      );
    }
    parts.push("  </testsuite>");
  }
  parts.push("</testsuites>\n");
  return parts.join("\n");
}

export async function benchJunit(rounds: number): Promise<BenchRow[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-bench-junit-"));
  try {
    const xml = makeReport();
    fs.mkdirSync(path.join(dir, "reports"));
    fs.writeFileSync(path.join(dir, "reports", "junit.xml"), xml);
    const bare = new XMLParser({ ignoreAttributes: false });
    const subject: number[] = [];
    const baseline: number[] = [];
    let cases = 0;
    for (let i = 0; i < rounds; i++) {
      // Alternate the order, so neither always runs on a warmer heap.
      const order = i % 2 === 0 ? ["subject", "baseline"] : ["baseline", "subject"];
      for (const which of order) {
        const started = performance.now();
        if (which === "subject")
          cases = readJunitReports({ checkoutDir: dir, glob: "reports/*.xml", sinceMs: 0 }).cases.length;
        else bare.parse(fs.readFileSync(path.join(dir, "reports", "junit.xml"), "utf8"));
        (which === "subject" ? subject : baseline).push(performance.now() - started);
      }
    }
    const s = median(subject);
    const b = median(baseline);
    return [
      {
        name:
          `a JUnit report of ${(xml.length / 1048576).toFixed(1)} MB with ` +
          `${cases.toLocaleString("en")} tests: read and parsed as a check's report vs ` +
          `fast-xml-parser's bare parse`,
        subjectMs: s,
        baselineMs: b,
        ratio: s / b,
      },
    ];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
