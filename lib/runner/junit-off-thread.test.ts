// A check's JUnit reports are parsed in a worker thread: the server's event loop keeps turning while a
// 5 MB report of 10,000 tests is parsed, and what the thread answers is what the in-thread reader answers.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeLargeJunitReport } from "../testing/junit-report";
import { readJunitReportsOffThread } from "./junit-off-thread";
import { readJunitReports } from "./junit-reports";

const FIXTURES = path.join(__dirname, "..", "gates", "fixtures");
let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-junit-thread-"));
  fs.mkdirSync(path.join(dir, "reports"));
  fs.writeFileSync(path.join(dir, "reports", "junit.xml"), makeLargeJunitReport());
  fs.writeFileSync(path.join(dir, "reports", "broken.xml"), "<testsuites><testcase name='a'>");
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("reading JUnit reports off the event loop", () => {
  it("answers what the in-thread reader answers, for every real runner's report", async () => {
    const options = { checkoutDir: FIXTURES, glob: "junit/*.xml", sinceMs: 0 };
    const off = await readJunitReportsOffThread(options);
    expect(off.filesRead).toBeGreaterThanOrEqual(10);
    expect(off).toEqual(readJunitReports(options));
  });

  it("keeps the event loop turning while a 5 MB report with 10,000 tests is parsed", async () => {
    const options = { checkoutDir: dir, glob: "reports/junit.xml", sinceMs: 0 };
    // Warm the thread, so the turns counted below are those of the parse, not of the thread's start-up.
    await readJunitReportsOffThread({ checkoutDir: FIXTURES, glob: "junit/node-test-pass.xml", sinceMs: 0 });
    let turns = 0;
    let isDone = false;
    const spin = () => {
      turns++;
      if (!isDone) setImmediate(spin);
    };
    setImmediate(spin);
    const read = await readJunitReportsOffThread(options);
    isDone = true;
    // A parse on this thread would have held every setImmediate callback until it returned.
    expect(turns).toBeGreaterThan(1);
    expect(read.cases).toHaveLength(10_000);
    expect(read.cases.filter((c) => c.status === "failed")).toHaveLength(500);
    expect(read).toEqual(readJunitReports(options));
  }, 60_000);

  it("reads several checks' reports at once, each answered with its own, and says why one was not read", async () => {
    const [large, broken] = await Promise.all([
      readJunitReportsOffThread({ checkoutDir: dir, glob: "reports/junit.xml", sinceMs: 0 }),
      readJunitReportsOffThread({ checkoutDir: dir, glob: "reports/broken.xml", sinceMs: 0 }),
    ]);
    expect(large.filesRead).toBe(1);
    expect(broken).toEqual(readJunitReports({ checkoutDir: dir, glob: "reports/broken.xml", sinceMs: 0 }));
    expect(broken.problems).toEqual([expect.stringMatching(/^reports\/broken\.xml: not valid XML/)]);
  }, 60_000);
});
