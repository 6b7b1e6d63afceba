// `agentPreset` on Works and tasks: a preset fills the agent command (only the command is stored); an
// unknown preset is refused naming the field, and nothing is saved. Real SQLite, in-process.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentPresetCommand } from "@/lib/gates/agent-presets";
import { makePerson } from "@/lib/testing/access-fixture";
import { callRoute, sendTokenByDefault } from "@/lib/testing/call-route";
import type { Json } from "@/lib/testing/json";
import { createTestDb, type TestDb } from "@/lib/testing/test-db";
import * as works from "./works/route";
import * as work from "./works/[id]/route";
import * as workTasks from "./works/[id]/tasks/route";
import * as task from "./tasks/[id]/route";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
  sendTokenByDefault((await makePerson("admin", { admin: true })).token);
});
afterAll(async () => t?.cleanup());

const createWork = (body: Record<string, unknown>) =>
  callRoute(works.POST, { method: "POST", body: { name: "Agents", repoUrl: "/tmp/repo", ...body } });

describe("agentPreset", () => {
  it("fills a Work's agent command on create and patch, and a task's", async () => {
    const created = await createWork({ agentPreset: "claude-code" });
    expect(created.status, created.text).toBe(201);
    expect(created.json.agentCommand).toBe(agentPresetCommand("claude-code"));
    expect(created.json).not.toHaveProperty("agentPreset");

    const patched = await callRoute(work.PATCH, {
      method: "PATCH",
      params: { id: created.json.id },
      body: { version: created.json.version, agentPreset: "codex" },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json.agentCommand).toBe("codex exec --json --full-auto --skip-git-repo-check -");

    const made = await callRoute(workTasks.POST, {
      method: "POST",
      params: { id: created.json.id },
      body: { title: "Fix it", agentPreset: "aider" },
    });
    expect(made.status, made.text).toBe(201);
    expect(made.json.agentCommand).toBe(agentPresetCommand("aider"));
    // A command sent beside the preset is what is kept.
    const edited = await callRoute(task.PATCH, {
      method: "PATCH",
      params: { id: made.json.id },
      body: { version: made.json.version, agentPreset: "claude-code", agentCommand: "claude -p --max-turns 5" },
    });
    expect(edited.json.agentCommand).toBe("claude -p --max-turns 5");
  });

  it("refuses an unknown preset naming the field, and saves nothing", async () => {
    const res = await createWork({ name: "Never saved", agentPreset: "copilot" });
    expect(res.status).toBe(400);
    expect(res.json.error.issues).toEqual([
      { path: "agentPreset", message: "must be one of: claude-code, codex, gemini, aider, custom" },
    ]);
    const list = await callRoute(works.GET);
    expect(list.json.works.map((w: Json) => w.name)).not.toContain("Never saved");
  });
});
