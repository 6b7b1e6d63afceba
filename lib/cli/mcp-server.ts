// `gatehouse mcp --task …`: an MCP server on stdio for an agent working on one task, with the tools
//   get_brief     the task, the checks that must pass, and what failed on the latest attempt;
//   run_gate      push the clone's work to the task's branch, run the gate there, wait: verdict + failing tails;
//   report_check  the agent's verdict on a check it runs itself (executor agent), sent with the next run_gate;
//   read_log      the end of a check's log on the latest (or a given) attempt.
// Held-out checks are their name and verdict only here, whoever's token the server uses.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { Check } from "../gates/check-schema";
import { stripAnsi } from "../gates/strip-ansi";
import type { ApiClient, TaskJson, WorkJson } from "./api-client";
import { version } from "../../package.json";
import { describeFailures } from "./agent-feedback";
import { passingRulesOf } from "../gates/passing-rules";
import { whatCheckRuns } from "../gates/builtins";
import { CliError } from "./cli-error";
import { describeEnd } from "./endings";
import { gateAtHead, settledLatestRun, type ReportEntry } from "./gate-at-head";
import { attemptOf, readCheckLog } from "./logs-command";

// A task's check as the API gives it to an engineer: the whole check, of which the brief shows what decides passing.
type BriefCheckJson = TaskJson["effectiveChecks"][number] &
  Pick<Check, "expectExit" | "expectStdout" | "cwd" | "use" | "with">;

type Target = { task: TaskJson; work: WorkJson; cwd: string; env: NodeJS.ProcessEnv; remote?: string };

const text = (body: string, isError = false) => ({ content: [{ type: "text" as const, text: body }], isError });

async function guarded(fn: () => Promise<ReturnType<typeof text>>) {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof CliError) return text(`gatehouse: ${error.message}`, true);
    throw error;
  }
}

function createMcpServer(Server: typeof McpServer, client: ApiClient, target: Target): McpServer {
  const server = new Server({ name: "gatehouse", version });
  const reports = new Map<string, ReportEntry>();
  const { task } = target;
  const agentChecks = () => task.effectiveChecks.filter((c) => c.executor === "agent" && !c.hidden);

  server.registerTool(
    "get_brief",
    {
      title: "The task's brief",
      description: `What task ${task.key} asks, the checks its gate runs, and what failed on its latest attempt.`,
    },
    () =>
      guarded(async () => {
        const lines = [
          `Task ${task.key}: ${task.title}`,
          ...(task.description ? ["", task.description] : []),
          "",
          "Checks:",
        ];
        for (const c of task.effectiveChecks as BriefCheckJson[]) {
          if (c.hidden) {
            lines.push(`- held-out check "${c.name}" (what it runs is not shown)`);
            continue;
          }
          const notes = [...(c.required ? [] : ["not required"]), ...passingRulesOf(c)];
          lines.push(
            `- ${c.id} "${c.name}"${notes.length ? ` (${notes.join("; ")})` : ""}` +
              `${c.executor === "agent" ? " — you run it and report it with report_check" : ""}: ` +
              `${c.use !== undefined ? `built-in, run by Gatehouse: ${whatCheckRuns(c)}` : whatCheckRuns(c)}`,
          );
        }
        const latest = await settledLatestRun(client, task.id);
        const last = latest?.attempts.at(-1);
        if (latest && last) lines.push("", describeFailures(latest, last), describeEnd(latest));
        else lines.push("", "No run yet: call run_gate when you are done.");
        return text(lines.join("\n"));
      }),
  );

  server.registerTool(
    "run_gate",
    {
      title: "Run the gate",
      description:
        "Push the clone's work (HEAD, or the working tree with its uncommitted changes) to the " +
        "task's branch, run Gatehouse's checks on it and wait for the verdict. Answers the gate and, " +
        "when red, the failing checks with the end of their logs.",
    },
    () =>
      guarded(async () => {
        const outcome = await gateAtHead(client, { ...target, report: [...reports.values()] });
        reports.clear();
        const { run, attempt } = outcome;
        const body = [describeFailures(run, attempt), describeEnd(run)];
        // Nothing changed and no report to send (the stop hook does the same): no attempt was spent.
        if (outcome.isStanding)
          body.push(
            `Nothing has changed since attempt ${attempt.n} (commit ${outcome.commit.slice(0, 12)}), so no ` +
              "attempt was spent: change the work, then call run_gate again.",
          );
        else if (outcome.isSnapshot) body.push("(gated your working tree with its uncommitted changes)");
        return text(body.join("\n"), false);
      }),
  );

  server.registerTool(
    "report_check",
    {
      title: "Report a check you ran",
      description: "Your verdict on a check the gate leaves to you (executor agent). It goes with the next run_gate.",
      inputSchema: {
        id: z.string().describe("the check's id"),
        status: z.enum(["pass", "fail"]),
        message: z.string().max(2000).describe("one line: what you saw").optional(),
      },
    },
    ({ id, status, message }) =>
      guarded(async () => {
        const declared = agentChecks();
        if (!declared.some((c) => c.id === id))
          return text(
            `"${id}" is not a check you report; yours: ${declared.map((c) => c.id).join(", ") || "none"}`,
            true,
          );
        const line = message?.split("\n")[0]?.trim();
        reports.set(id, { id, status, ...(line ? { message: line } : {}) });
        return text(`recorded ${id}: ${status}; it goes with the next run_gate`);
      }),
  );

  server.registerTool(
    "read_log",
    {
      title: "Read a check's log",
      description: "The last lines of a check's log on the task's latest run (its last attempt unless you name one).",
      inputSchema: {
        check_id: z.string().describe("the check's id (_agent: the agent step's log)"),
        attempt: z.number().int().min(1).optional(),
        lines: z.number().int().min(1).max(2000).optional(),
      },
    },
    ({ check_id, attempt, lines }) =>
      guarded(async () => {
        const latest = await settledLatestRun(client, task.id);
        if (!latest) return text("no run yet: call run_gate first", true);
        if (latest.checks.find((c) => c.id === check_id)?.hidden)
          return text(`"${check_id}" is a held-out check: its log is not shown`, true);
        const log = await readCheckLog(client, latest, attemptOf(latest, attempt), check_id, { withHeldOut: false });
        const tail = stripAnsi(log)
          .replace(/\s+$/, "")
          .split("\n")
          .slice(-(lines ?? 200));
        return text(tail.join("\n"));
      }),
  );
  return server;
}

export async function serveMcp(client: ApiClient, target: Target): Promise<void> {
  // The SDK is loaded here, when `gatehouse mcp` runs, not as the bundled CLI starts: a Stop hook runs the CLI
  // at every stop of the agent, and the SDK is a quarter of a second of its start (the bundle keeps the SDK
  // alone out, as an import: scripts/build-cli.mjs).
  const [{ McpServer: Server }, { StdioServerTransport }] = await Promise.all([
    import("@modelcontextprotocol/sdk/server/mcp.js"),
    import("@modelcontextprotocol/sdk/server/stdio.js"),
  ]);
  const server = createMcpServer(Server, client, target);
  await server.connect(new StdioServerTransport());
}
