// An attempt at a commit the agent pushed (its stop hook, the MCP server's run_gate, `gatehouse` itself):
// the commit the checks run on and, optionally, the agent's report of the checks it runs (executor agent),
// since no agent step runs on the server to write $GATEHOUSE_REPORT_FILE.
import { z } from "zod";
import { ZReport, type ReportEntry } from "./agent-report";

export type PushedAttempt = { commit: string; report: ReportEntry[] | null };

export const ZPushedAttemptRequest = z
  .strictObject(
    {
      commit: z
        .string({ error: (issue) => (issue.input === undefined ? "required" : "must be text (a commit id)") })
        .regex(/^[0-9a-f]{40}$/, "must be a full 40-character commit id (lower-case hex)"),
      report: ZReport.optional(),
    },
    {
      error: (issue) =>
        issue.code === "unrecognized_keys" ? `unknown field: ${issue.keys.join(", ")}` : "must be an object",
    },
  )
  .superRefine((value, ctx) => {
    const seen = new Set<string>();
    for (const [i, entry] of (value.report?.checks ?? []).entries()) {
      if (seen.has(entry.id))
        ctx.addIssue({ code: "custom", path: ["report", "checks", i, "id"], message: "reported twice" });
      seen.add(entry.id);
    }
  });

export function toPushedAttempt(input: z.infer<typeof ZPushedAttemptRequest>): PushedAttempt {
  return { commit: input.commit, report: input.report ? input.report.checks : null };
}
