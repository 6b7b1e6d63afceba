// The demo as a newcomer's first start makes it: its proof rows on attempt 1 (no test added, reported)
// and attempt 2 (a test added; every row green). In a database of its own (the demo seeds an empty one).
import { describe, expect, it } from "vitest";
import { seedDemoIfEmpty } from "../startup/seed-demo";
import type { RunDetail } from "../services/run-detail";
import { settle, type Harness } from "../testing/runner-harness";
import { sandboxedHarness } from "../testing/sandboxed-harness";

let h: Harness;
// Sandboxed, as a default install runs it (the other runner tests run without: vitest.config.mts).
sandboxedHarness((made) => {
  h = made;
});

function proofOf(detail: RunDetail, n: number) {
  const attempt = detail.attempts.find((a) => a.n === n)!;
  return Object.fromEntries(
    attempt.results
      .filter((r) => r.checkId.startsWith("_"))
      .map((r) => [r.checkId, { verdict: r.verdict, required: r.required, message: r.message }]),
  );
}
describe("the demo", () => {
  it("attempt 1 is red and adds no test (reported); attempt 2 adds a test and is green, proven by \
every row", async () => {
    const seeded = await seedDemoIfEmpty();
    const detail = await settle(h, seeded!.runId);
    expect(detail.attempts.map((a) => a.gate)).toEqual(["red", "green"]);
    expect(detail.run.ending).toBe("accepted");
    expect(detail.run.sandboxMode).toBe("bwrap");
    expect(proofOf(detail, 1)).toEqual({
      "_tests-added": {
        verdict: "failed",
        required: false,
        message: "The change adds or changes no test: none of its files is a test file",
      },
      _protected: { verdict: "passed", required: true, message: "The change leaves the gate's own files alone" },
    });
    expect(proofOf(detail, 2)).toEqual({
      "_tests-added": {
        verdict: "passed",
        required: false,
        message: "The change touches 1 test file: test/slugify.test.js",
      },
      _protected: { verdict: "passed", required: true, message: "The change leaves the gate's own files alone" },
      "_tests-kept": {
        verdict: "passed",
        required: true,
        message: "The 1 test file the change modified or deleted still passes as it was",
      },
      "_fails-without-change": {
        verdict: "passed",
        required: false,
        message: 'Without the change, "unit" fails: it tests the work',
      },
    });
    // The second brief hands attempt 1's red rows back, the proof row with what to do.
    expect(detail.attempts[1].brief).toContain("### _tests-added — Tests were added: failed");
  });
});
