// The sandbox settings of a Work (issue 20) through the JSON API: defaults, stored and answered back, every
// bad value refused with its field path and nothing half-saved, and frozen into a run at dispatch (a later
// edit of the Work does not change what the run shows). Real SQLite, a real run.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/auth/actor";
import { dispatchTask } from "@/lib/services/runs";
import { callRoute, sendTokenByDefault } from "@/lib/testing/call-route";
import { makePerson } from "@/lib/testing/access-fixture";
import type { Json } from "@/lib/testing/json";
import { check, createHarness, makeScenario, settle, type Harness } from "@/lib/testing/runner-harness";
import * as works from "./works/route";
import * as work from "./works/[id]/route";
import * as run from "./runs/[id]/route";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  sendTokenByDefault((await makePerson("admin", { admin: true })).token);
});
afterAll(async () => h?.cleanup());

let seq = 0;
// A real repository, so creating a Work carries no "cannot be reached" warning.
let repoUrl = "";
beforeAll(() => {
  repoUrl = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-sandbox-settings-repo-"));
  execFileSync("git", ["init", "-q", "--bare", repoUrl]);
});
afterAll(() => fs.rmSync(repoUrl, { recursive: true, force: true }));
const postWork = (body: Record<string, unknown>) =>
  callRoute(works.POST, { method: "POST", body: { name: `Sandboxed ${++seq}`, repoUrl, ...body } });
const getWork = (id: string) => callRoute(work.GET, { params: { id } });
const patchWork = (id: string, body: unknown) => callRoute(work.PATCH, { method: "PATCH", params: { id }, body });

function issuesOf(res: { status: number; json: Json }): { path: string; message: string }[] {
  expect(res.status, JSON.stringify(res.json)).toBe(400);
  expect(res.json.error.code).toBe("validation");
  return res.json.error.issues as unknown as { path: string; message: string }[];
}

describe("the sandbox settings of a Work", () => {
  it("default to network on for the agent and the checks, no extra mounts, no extra refs", async () => {
    const res = await postWork({});
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ agentNetwork: "on", checkNetwork: "on", sandboxMounts: [], visibleRefs: [] });
  });

  it("are stored as given on create and on patch, and answered back", async () => {
    const settings = {
      agentNetwork: "off",
      checkNetwork: "off",
      sandboxMounts: [
        { path: "/opt/toolchain", mode: "ro" },
        { path: "/var/cache/ms-playwright", mode: "rw" },
      ],
      visibleRefs: ["refs/tags/v*", "release/*"],
    };
    const created = await postWork(settings);
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    expect((await getWork(created.json.id)).json).toMatchObject(settings);

    const patched = await patchWork(created.json.id, {
      version: 1,
      checkNetwork: "on",
      sandboxMounts: [{ path: "/srv/fixtures", mode: "ro" }],
      visibleRefs: [],
    });
    expect(patched.status, JSON.stringify(patched.json)).toBe(200);
    expect((await getWork(created.json.id)).json).toMatchObject({
      agentNetwork: "off",
      checkNetwork: "on",
      sandboxMounts: [{ path: "/srv/fixtures", mode: "ro" }],
      visibleRefs: [],
      version: 2,
    });
  });

  const mounts = (...list: unknown[]) => ({ sandboxMounts: list });
  const ok = { path: "/opt/toolchain", mode: "ro" };
  it.each([
    [{ agentNetwork: "maybe" }, "agentNetwork", "must be on or off"],
    [{ checkNetwork: true }, "checkNetwork", "must be on or off"],
    [mounts({ path: "cache/x", mode: "ro" }), "sandboxMounts.0.path", "must be an absolute path (starting with /)"],
    [mounts(ok, { path: "/opt/../etc", mode: "ro" }), "sandboxMounts.1.path", "must not contain '..'"],
    [mounts({ path: "/opt/x", mode: "rx" }), "sandboxMounts.0.mode", "must be ro (read-only) or rw (read-write)"],
    [mounts({ path: "/opt/x" }), "sandboxMounts.0.mode", "must be ro (read-only) or rw (read-write)"],
    [mounts({ path: "/opt/x", mode: "ro", writable: true }), "sandboxMounts.0.writable", "unknown field: writable"],
    [mounts(ok, ok), "sandboxMounts.1.path", "listed twice"],
    [
      mounts(...Array.from({ length: 21 }, (_, i) => ({ path: `/opt/m${i}`, mode: "ro" }))),
      "sandboxMounts",
      "at most 20 mounts",
    ],
    [{ sandboxMounts: "/opt" }, "sandboxMounts", "must be a list of {path, mode}"],
    [{ visibleRefs: ["refs/tags/v*", "has space"] }, "visibleRefs.1", "not a ref glob"],
    [{ visibleRefs: ["a..b"] }, "visibleRefs.0", "not a ref glob: must not contain '..' or '//'"],
    [{ visibleRefs: ["refs/heads/x.lock"] }, "visibleRefs.0", "not a ref glob"],
    [{ visibleRefs: ["-delete"] }, "visibleRefs.0", "not a ref glob: must not start with '-' or '/'"],
    [{ visibleRefs: Array.from({ length: 21 }, (_, i) => `release/${i}`) }, "visibleRefs", "at most 20 ref globs"],
  ])("refuses %j at %s, saving nothing (not even the valid fields)", async (bad, at, message) => {
    // The Work as the API reads it back (a create answers with its warnings besides).
    const { warnings: _, ...w } = (await postWork({})).json as Record<string, Json>;
    const res = await patchWork(w.id, { version: 1, failFast: true, ...bad });
    const issue = issuesOf(res).find((i) => i.path === at);
    expect(issue?.message, JSON.stringify(res.json)).toContain(message);
    expect((await getWork(w.id)).json).toEqual(w);
    // And refused the same way when a Work is created with it.
    expect(issuesOf(await postWork(bad)).map((i) => i.path)).toContain(at);
  });

  it("refuses a mount inside the data dir or the install folder, or one that contains them, by its path", async () => {
    // The Work as the API reads it back (a create answers with its warnings besides).
    const { warnings: _, ...w } = (await postWork({})).json as Record<string, Json>;
    const cases = [
      [path.join(h.dataDir, "worktrees"), "must not be inside Gatehouse's data dir"],
      [path.join(process.cwd(), "node_modules"), "must not be inside Gatehouse's install folder"],
      [path.dirname(h.dataDir), "must not contain Gatehouse's data dir"],
    ];
    for (const [where, message] of cases) {
      const res = await patchWork(w.id, {
        version: 1,
        sandboxMounts: [ok, { path: "/srv/other", mode: "rw" }, { path: where, mode: "ro" }],
      });
      const issues = issuesOf(res);
      expect(issues).toEqual([{ path: "sandboxMounts.2.path", message: expect.stringContaining(message) }]);
    }
    expect((await getWork(w.id)).json).toEqual(w);
    expect(issuesOf(await postWork({ sandboxMounts: [{ path: h.dataDir, mode: "rw" }] }))).toEqual([
      { path: "sandboxMounts.0.path", message: expect.stringContaining("data dir") },
    ]);
  });

  it("refuses a mount that leads through a link into the data dir, naming where it leads", async () => {
    const { warnings: _, ...w } = (await postWork({})).json as Record<string, Json>;
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-mount-link-"));
    try {
      const link = path.join(outside, "data");
      fs.symlinkSync(h.dataDir, link);
      const real = fs.realpathSync(h.dataDir);
      for (const where of [link, path.join(link, "worktrees")]) {
        const res = await patchWork(w.id, { version: 1, sandboxMounts: [ok, { path: where, mode: "ro" }] });
        expect(issuesOf(res)).toEqual([
          {
            path: "sandboxMounts.1.path",
            message: expect.stringMatching(
              new RegExp(`^must not be inside Gatehouse's data dir .*: it leads through a link to ${real}`),
            ),
          },
        ]);
      }
      expect((await getWork(w.id)).json).toEqual(w);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it("are frozen into a run at dispatch: a later edit of the Work does not change what the run shows", async () => {
    const sandbox = {
      agentNetwork: "off",
      checkNetwork: "on",
      sandboxMounts: [{ path: "/opt/toolchain", mode: "ro" }],
      visibleRefs: ["refs/tags/v*"],
    };
    const s = await makeScenario(h, { checkDefaults: [check("ok", "test -d .")], ...sandbox });
    const dispatched = await dispatchTask(SYSTEM_ACTOR, s.task.id);
    await settle(h, dispatched.id);
    const patched = await patchWork(s.work.id, {
      version: s.work.version,
      agentNetwork: "on",
      sandboxMounts: [],
      visibleRefs: ["release/*"],
    });
    expect(patched.status, JSON.stringify(patched.json)).toBe(200);
    const shown = await callRoute(run.GET, { params: { id: dispatched.id } });
    expect(shown.status).toBe(200);
    expect(shown.json.sandbox).toEqual(sandbox);
    const stored = await h.t.db.run.findUniqueOrThrow({ where: { id: dispatched.id }, select: { sandbox: true } });
    expect(stored.sandbox).toEqual(sandbox);
  });
});
