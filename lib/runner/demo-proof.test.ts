// The demo as a newcomer's first start makes it: its proof rows on attempt 1 (no test added, reported)
// and attempt 2 (a test added; every row green). In a database of its own (the demo seeds an empty one).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "../auth/actor";
import { findWork } from "../db/works";
import { landingWarning, mergeTask } from "../services/merge";
import { isRoot } from "../testing/needs-root";
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
    // And it lands: Merge pushes into the demo repository as the user git runs as (as root, the sandbox's),
    // which failed with "unable to create temporary object directory" while the repository was root's.
    const work = (await findWork({ id: detail.work.id }))!;
    if (isRoot) {
      // Given back to root, as it was made before: said on the Work's page first, then by Merge, which
      // pushes nothing.
      const owner = fs.statSync(work.repoUrl);
      execFileSync("chown", ["-R", "0:0", work.repoUrl]);
      expect(await landingWarning(work)).toContain(
        "is not writable by gatehouse-run, the user Gatehouse's git runs as",
      );
      const refused = await mergeTask(SYSTEM_ACTOR, seeded!.taskId).catch((e: Error) => e);
      expect(String(refused)).toContain("gatehouse-run, the user Gatehouse's git runs as, may not write to it");
      execFileSync("chown", ["-R", `${owner.uid}:${owner.gid}`, work.repoUrl]);
    }
    expect(await landingWarning(work)).toBeNull();
    const merged = await mergeTask(SYSTEM_ACTOR, seeded!.taskId);
    // (Read as files: the repository is that user's now, and the test's git, root's, would call it dubious.)
    expect(fs.readFileSync(path.join(work.repoUrl, ".git", "refs", "heads", "main"), "utf8").trim()).toBe(
      merged.commit,
    );
    expect(fs.readFileSync(path.join(work.repoUrl, "src", "slugify.js"), "utf8")).toContain("toLowerCase");
  });
});
