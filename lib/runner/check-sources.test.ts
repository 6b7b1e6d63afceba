// Check sources end to end (SPEC Part 2, "Check code out of the agent's reach"): real repositories of check
// code, an agent that tries to change them, a source pushed to after the run started, sources out of reach,
// a private source over HTTP with its secret, and bad sources refused when saved.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "../auth/actor";
import { AppError } from "../errors";
import { countWorks, findWork } from "../db/works";
import { setSecret } from "../services/secrets";
import { createWork, updateWork } from "../services/works";
import { presentRun } from "../api/present-run";
import { makeCheckSourceRepo, serveOverHttp } from "../testing/check-source-repos";
import { gitIn } from "../testing/git-repo";
import { check, createHarness, dispatchAndSettle, makeScenario, type Harness } from "../testing/runner-harness";
import { authorizationHeader, runChecksDirOf } from "./check-sources";
import { checkLogPathOf } from "./paths";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.cleanup());

const GATE = check("gate", "bash {{checks_dir}}/gate/check.sh");
const GATE_BY_ENV = check("gate-env", 'bash "$GATEHOUSE_CHECKS_DIR/gate/check.sh"');
const FAKE = "printf 'echo faked; exit 0\\n'";

function logOf(runId: string, checkId: string, n = 1): string {
  return fs.readFileSync(checkLogPathOf(h.dataDir, runId, n, checkId), "utf8");
}

describe("check sources", () => {
  it("the checks run the fresh clone, whatever the agent wrote at the clone's path or into its checkout", async () => {
    const source = makeCheckSourceRepo("v1");
    h.repos.push(source);
    const marker = path.join(h.scratch, "tried-1");
    // Attempt 1 plants a fake gate where the clone will be and a copy in the checkout; attempt 2 does the work.
    const agent = `if [ "$GATEHOUSE_ATTEMPT" = 1 ]; then
  P="${h.dataDir}/checks/$GATEHOUSE_RUN_ID/1/gate"; mkdir -p "$P" && ${FAKE} > "$P/check.sh"
  mkdir -p gate && ${FAKE} > gate/check.sh && touch ${marker}
else echo done > done.txt; fi`;
    const s = await makeScenario(h, {
      checkDefaults: [GATE, GATE_BY_ENV],
      checkSources: [{ name: "gate", url: source.dir, ref: "main" }],
      agentCommand: agent,
      maxGateAttempts: 2,
    });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(fs.existsSync(marker)).toBe(true);
    const [first, second] = detail.attempts;
    expect(first.results.map((r) => [r.checkId, r.verdict])).toEqual([
      ["gate", "failed"],
      ["gate-env", "failed"],
    ]);
    expect(first.results[0].message).toBe("genuine gate v1");
    expect(logOf(detail.run.id, "gate")).not.toContain("faked");
    expect(logOf(detail.run.id, "gate-env")).toContain("genuine gate v1");
    expect(second.results.map((r) => r.verdict)).toEqual(["passed", "passed"]);
    expect(detail.run.ending).toBe("accepted");
    // Frozen into the run, shown in its JSON; the clones are gone once the run has ended.
    expect(presentRun(detail).checkSources).toEqual([
      { name: "gate", url: source.dir, ref: "main", commit: source.head },
    ]);
    expect(fs.existsSync(runChecksDirOf(h.dataDir, detail.run.id))).toBe(false);
  });

  it("the commit is frozen before the agent starts: one pushed to the source afterwards is not used", async () => {
    const source = makeCheckSourceRepo("v1");
    h.repos.push(source);
    const agent =
      `printf 'v2\\n' > ${source.dir}/VERSION && git -C ${source.dir} -c user.name=a -c ` +
      `user.email=a@b.invalid commit -qam v2 && echo done > done.txt`;
    const s = await makeScenario(h, {
      checkDefaults: [GATE],
      checkSources: [{ name: "gate", url: source.dir, ref: "refs/heads/main" }],
      agentCommand: agent,
    });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(gitIn(source.dir, "rev-parse", "HEAD")).not.toBe(source.head);
    expect(detail.attempts[0].results[0]).toMatchObject({ verdict: "passed", message: "genuine gate v1" });
    expect(detail.run.checkSources[0].commit).toBe(source.head);
  });

  it("a source pinned to a commit id is cloned at that commit", async () => {
    const source = makeCheckSourceRepo("v1");
    h.repos.push(source);
    const pinned = source.head;
    fs.writeFileSync(path.join(source.dir, "VERSION"), "v2\n");
    gitIn(source.dir, "commit", "-qam", "v2");
    const s = await makeScenario(h, {
      checkDefaults: [GATE],
      checkSources: [{ name: "gate", url: source.dir, ref: pinned }],
      agentCommand: "echo done > done.txt",
    });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(detail.attempts[0].results[0]).toMatchObject({ verdict: "passed", message: "genuine gate v1" });
  });

  it.each([
    ["an unreachable url", (dir: string) => ({ url: `${dir}-gone`, ref: "main" })],
    ["a ref the source does not have", (dir: string) => ({ url: dir, ref: "no-such-branch" })],
    [
      "a commit the source does not have",
      (_dir: string) => ({ url: _dir, ref: "0123456789abcdef0123456789abcdef01234567" }),
    ],
  ])("%s ends the run inconclusive before the agent runs, naming the source", async (_what, where) => {
    const source = makeCheckSourceRepo();
    h.repos.push(source);
    const marker = path.join(h.scratch, `agent-ran-${Math.random().toString(36).slice(2)}`);
    const s = await makeScenario(h, {
      checkDefaults: [GATE],
      checkSources: [
        { name: "fine", url: source.dir, ref: "main" },
        { name: "gate", ...where(source.dir) },
      ],
      agentCommand: `touch ${marker}`,
    });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(detail.run.ending).toBe("inconclusive");
    // What was resolved is recorded; the source out of reach has no commit.
    expect(detail.run.checkSources.map((c) => [c.name, c.commit])).toEqual([
      ["fine", source.head],
      ["gate", null],
    ]);
    expect(detail.run.endingReason).toMatch(/^check source "gate" \(.+\) could not be reached: /);
    expect(fs.existsSync(marker)).toBe(false);
    expect(detail.attempts[0].agentVerdict).toBeNull();
    expect(detail.attempts[0].results[0]).toMatchObject({ verdict: "error" });
    expect(detail.attempts[0].results[0].message).toContain('not run: check source "gate"');
  });

  it("an agent (same user, no run-as) that destroys the run's cache ends the run inconclusive, \
naming the source", async () => {
    const source = makeCheckSourceRepo();
    h.repos.push(source);
    const s = await makeScenario(h, {
      checkDefaults: [GATE],
      checkSources: [{ name: "gate", url: source.dir, ref: "main" }],
      agentCommand: `rm -rf "${h.dataDir}/checks/$GATEHOUSE_RUN_ID/cache/gate.git/objects" && echo done > done.txt`,
    });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(detail.run.ending).toBe("inconclusive");
    expect(detail.run.endingReason).toMatch(/^check source "gate" could not be cloned: /);
    expect(detail.attempts[0].results.map((r) => [r.checkId, r.verdict])).toEqual([["gate", "error"]]);
  });

  it("the clone is read-only and outside the task's worktree", async () => {
    const source = makeCheckSourceRepo();
    h.repos.push(source);
    const s = await makeScenario(h, {
      checkDefaults: [
        check(
          "modes",
          'stat -c %a "$GATEHOUSE_CHECKS_DIR/gate/check.sh" "$GATEHOUSE_CHECKS_DIR/gate" ' +
            '"$GATEHOUSE_CHECKS_DIR/gate/.git/config" | tr "\\n" " "; case "$GATEHOUSE_CHECKS_DIR" in ' +
            '"$PWD"*) echo inside; exit 1;; esac',
        ),
      ],
      checkSources: [{ name: "gate", url: source.dir, ref: "main" }],
    });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(detail.attempts[0].results[0]).toMatchObject({ verdict: "passed", message: "444 555 444" });
  });

  it("a private source's secret goes to git alone: never into the check's environment, output or \
the clone", async () => {
    const source = makeCheckSourceRepo("private");
    h.repos.push(source);
    const token = "tok-9f8e7d6c5b4a";
    const expected = authorizationHeader(token).replace("Authorization: Basic ", "");
    const server = await serveOverHttp(source, expected);
    try {
      const s = await makeScenario(h, {
        checkDefaults: [
          check(
            "snoop",
            'env; git -C "$GATEHOUSE_CHECKS_DIR/gate" config --list; cat ' +
              '"$GATEHOUSE_CHECKS_DIR/gate/.git/config"; grep -r --exclude-dir=hooks . ' +
              '"$GATEHOUSE_CHECKS_DIR/gate/.git" 2>/dev/null | head -c 200000; bash ' +
              '"$GATEHOUSE_CHECKS_DIR/gate/check.sh"',
          ),
        ],
        agentCommand: "echo done > done.txt",
      });
      await setSecret(SYSTEM_ACTOR, s.work.id, "GATE_TOKEN", { value: token });
      await updateWork(SYSTEM_ACTOR, s.work.id, {
        version: s.work.version,
        checkSources: [{ name: "gate", url: server.url, ref: "main", secret: "GATE_TOKEN" }],
      });
      const detail = await dispatchAndSettle(h, s.task.id);
      expect(detail.attempts[0].results[0]).toMatchObject({ verdict: "passed", message: "genuine gate private" });
      const log = logOf(detail.run.id, "snoop");
      expect(log).toContain(`url=${server.url}`);
      // Not masked: absent (a masked value would show as ***).
      for (const text of [token, expected, "***", "extraheader", "GATE_TOKEN"])
        expect(
          log.includes(text),
          `the log shows ${text}: ${log
            .split("\n")
            .filter((l) => l.includes(text))
            .join(" / ")}`,
        ).toBe(false);
      expect(JSON.stringify(presentRun(detail))).not.toContain(token);
      expect(server.requests.some((r) => r.authorization === `Basic ${expected}`)).toBe(true);

      // Without the secret the source is out of reach: named, before the agent.
      const open = await makeScenario(h, {
        checkDefaults: [GATE],
        checkSources: [{ name: "gate", url: server.url, ref: "main" }],
      });
      const refused = await dispatchAndSettle(h, open.task.id);
      expect(refused.run.ending).toBe("inconclusive");
      expect(refused.run.endingReason).toContain(`check source "gate" (${server.url} at main) could not be reached`);
    } finally {
      server.close();
    }
  });
});

describe("check sources refused when saved", () => {
  const good = { name: "gate", url: "https://git.example.com/gate.git", ref: "main" };
  it.each([
    ["url", { url: "--upload-pack=touch /tmp/x" }, "checkSources.0.url", "must not start with '-'"],
    ["url", { url: "-oProxyCommand=touch /tmp/x" }, "checkSources.0.url", "must not start with '-'"],
    ["url", { url: "ext::sh -c touch% /tmp/x" }, "checkSources.0.url", "remote helpers"],
    ["url", { url: "ext::sh" }, "checkSources.0.url", "remote helpers"],
    ["url", { url: "ssh://-oProxyCommand=x/repo" }, "checkSources.0.url", "host must not start with '-'"],
    ["ref", { ref: "a..b" }, "checkSources.0.ref", "not a git ref: must not contain '..'"],
    ["ref", { ref: "refs/heads/" }, "checkSources.0.ref", "not a git ref"],
    ["ref", { ref: "main@{1}" }, "checkSources.0.ref", "must not contain '@{'"],
    ["name", { name: "../x" }, "checkSources.0.name", "a folder name"],
  ])("a bad %s (%j) is refused with its field path, nothing saved", async (_field, bad, pathWanted, rule) => {
    const before = await countWorks();
    const error = await createWork(SYSTEM_ACTOR, {
      name: "Refused",
      repoUrl: "/tmp/x",
      checkSources: [{ ...good, ...bad }],
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    const issues = (error as AppError).issues;
    expect(issues).toContainEqual({ path: pathWanted, message: expect.stringContaining(rule) });
    expect(await countWorks()).toBe(before);
  });

  it("a duplicate name and an unknown secret are refused on a change, which saves nothing", async () => {
    const s = await makeScenario(h, { checkDefaults: [GATE] });
    const refuse = async (checkSources: unknown[]) => {
      const error = await updateWork(SYSTEM_ACTOR, s.work.id, {
        version: s.work.version,
        checkSources,
        failFast: true,
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      return (error as AppError).issues;
    };
    expect(await refuse([good, { ...good, url: "https://git.example.com/other.git" }])).toContainEqual({
      path: "checkSources.1.name",
      message: expect.stringContaining('duplicate name "gate"'),
    });
    expect(await refuse([good, { ...good, name: "private", secret: "NO_SUCH_SECRET" }])).toEqual([
      { path: "checkSources.1.secret", message: expect.stringContaining("no secret named NO_SUCH_SECRET") },
    ]);
    const after = await findWork({ id: s.work.id });
    expect(after).toMatchObject({ version: s.work.version, checkSources: [], failFast: false });
  });
});
