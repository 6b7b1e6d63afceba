// The agent step through its context alone: the brief it is handed, its verdict, its report, and a
// command that cannot start.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findAttempt } from "../../../db/runs";
import { attemptContextFor, runStep } from "../../../testing/attempt-context";
import { check, createHarness, makeScenario, type Harness } from "../../../testing/runner-harness";
import { agentStep } from "./agent";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.cleanup());

describe("agentStep", () => {
  it("runs the agent with the brief on stdin and in its file, and takes its report of the agent checks", async () => {
    const seen = path.join(h.scratch, "brief-seen.md");
    const report = JSON.stringify({ checks: [{ id: "served", status: "pass", message: "200" }] });
    const s = await makeScenario(h, {
      checkDefaults: [check("unit", "true"), check("served", "open the page", { executor: "agent" })],
      agentCommand: [
        `cat > ${seen}`,
        `cmp -s ${seen} "$GATEHOUSE_BRIEF_FILE"`,
        `echo '${report}' > "$GATEHOUSE_REPORT_FILE"`,
      ].join(" && "),
    });
    const { ctx } = await attemptContextFor(h, s);
    expect(await runStep(ctx, agentStep)).toEqual({ verdicts: [] });
    const attempt = await findAttempt({ runId: ctx.run.id, n: 1 });
    expect(attempt).toMatchObject({ agentVerdict: "passed", agentExitCode: 0 });
    expect(fs.readFileSync(seen, "utf8")).toBe(attempt!.brief);
    expect(attempt!.brief).toContain("unit");
    expect(ctx.agentReport?.verdicts.get("served")).toEqual({ verdict: "passed", message: "200" });
  });

  it("an agent command that cannot start makes the attempt inconclusive", async () => {
    const s = await makeScenario(h, { checkDefaults: [check("unit", "true")], agentCommand: "no-such-agent-cli" });
    const { ctx } = await attemptContextFor(h, s);
    const { inconclusive } = await runStep(ctx, agentStep);
    expect(inconclusive).toMatch(/^the agent command could not start \(exit code 127/);
  });

  it("without an agent command nothing runs", async () => {
    const s = await makeScenario(h, { checkDefaults: [check("unit", "true")] });
    const { ctx } = await attemptContextFor(h, s);
    expect(await runStep(ctx, agentStep)).toEqual({ verdicts: [] });
    expect(ctx.run.spentMs).toBe(0);
  });
});
