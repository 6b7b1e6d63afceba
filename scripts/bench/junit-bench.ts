// JUnit parsing (`npm run bench -- junit`): a 5 MB report with 10,000 tests (1 in 20 failing, each failure
// with a message and a 30-line trace), read from a checkout and parsed as a check's reports are
// (lib/runner/junit-reports.ts: the walk, the capped read, the DOCTYPE and count checks, the parse, the
// per-test records), against fast-xml-parser's bare parse of the same text.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { XMLParser } from "fast-xml-parser";
import { readJunitReports } from "../../lib/runner/junit-reports";
import { makeLargeJunitReport } from "../../lib/testing/junit-report";
import type { BenchRow } from "./runner-bench";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
export async function benchJunit(rounds: number): Promise<BenchRow[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-bench-junit-"));
  try {
    const xml = makeLargeJunitReport();
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
        name: `a JUnit report of ${(xml.length / 1048576).toFixed(1)} MB with ${cases.toLocaleString("en")} tests: read and parsed as a check's report vs fast-xml-parser's bare parse`,
        subjectMs: s,
        baselineMs: b,
        ratio: s / b,
      },
    ];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
