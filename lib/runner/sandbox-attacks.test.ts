// The sandbox attacked as a hostile agent would, with real processes, from inside the agent step and from
// inside a check (SPEC Part 3; issue 20, item 5): every attack prints "LEAK …" when it works, and the run
// shows whether any did. Runs as root (as CI does): the sandbox's commands then run as its own user.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { SYSTEM_ACTOR } from "../auth/actor";
import { setSecret } from "../services/secrets";
import { describeAsRoot } from "../testing/needs-root";
import { sandboxedHarness } from "../testing/sandboxed-harness";
import { processesCarrying } from "../testing/processes";
import { copyPytestTo } from "../testing/reachable-pytest";
import { check, dispatchAndSettle, makeScenario, type Harness } from "../testing/runner-harness";
import { worktreeDirOf } from "./checkout/checkout";

// Each line an attack; it prints LEAK when it worked. Arguments: the data dir, the install folder, the
// server's pid, another Work's task worktree.
const ATTACK = `#!/bin/bash
data=$1 install=$2 spid=$3 other=$4
db=$data/gatehouse.db key=$data/secret.key
leak() { echo "LEAK: $1"; }
cat "$db" >/dev/null 2>&1 && leak "read the database"
( echo x >> "$db" ) 2>/dev/null && leak "write the database"
cat "$key" >/dev/null 2>&1 && leak "read the secret key"
ls -A "$data/logs" 2>/dev/null | grep -q . && leak "list the logs"
ls -A "$data" 2>/dev/null | grep -qxE 'gatehouse.db|secret.key|logs|tmp|scratch' && leak "list the data dir's own files"
ls -A "$data/repos" 2>/dev/null | grep -q . && leak "see the Works' repositories"
ls -A "$data/briefs" 2>/dev/null | grep -vx "$GATEHOUSE_RUN_ID" | grep -q . && leak "see other runs' briefs"
ls -A "$other" 2>/dev/null | grep -q . && leak "see another run's worktree"
( mkdir -p "$other" && echo x > "$other/planted" ) 2>/dev/null && [ -e "$other/planted" ] && leak \
"write another run's worktree"
[ -e "$install/package.json" ] && leak "see the install folder"
( echo x > "$install/planted" ) 2>/dev/null && leak "write the install folder"
( echo x > /usr/local/bin/gatehouse-planted ) 2>/dev/null && leak "write /usr/local/bin"
( echo x > /etc/gatehouse-planted ) 2>/dev/null && leak "write /etc"
cat /etc/shadow >/dev/null 2>&1 && leak "read /etc/shadow"
ls -A /root >/dev/null 2>&1 && leak "list /root"
kill -0 "$spid" 2>/dev/null && leak "signal the server"
[ -e "/proc/$spid" ] && leak "see the server in /proc"
grep -lsa 'vites[t]' /proc/[0-9]*/cmdline | grep -q . && leak "see the server's processes"
cat "/proc/1/root$db" >/dev/null 2>&1 && leak "read the database through /proc/1/root"
ln -sfn "$db" link-to-db && cat link-to-db >/dev/null 2>&1 && leak "read the database through a symlink in the worktree"
ln -sfn "$data" link-to-data && ls -A link-to-data/logs 2>/dev/null | grep -q . && leak "list the \
logs through a symlink in the worktree"
rm -f link-to-db link-to-data
# The checkout is a repository of its own (its hooks and config are the agent's, and the platform's git
# ignores both): git finds no directory outside it.
common=$(cd "$(git rev-parse --git-common-dir)" && pwd -P)
case "$common" in "$(pwd -P)"/*) ;; *) leak "reach a git dir outside the checkout: $common" ;; esac
ls -A "$(dirname "$PWD")" | grep -vx "$(basename "$PWD")" | grep -q . && leak "see beside the \
worktree (a bind mount's parent)"
if [ -n "$GATEHOUSE_BRIEF_FILE" ]; then
  ( echo x >> "$GATEHOUSE_BRIEF_FILE" ) 2>/dev/null && leak "rewrite the brief"
  ls -A "$(dirname "$GATEHOUSE_BRIEF_FILE")" | grep -vxE "$(basename \
"$GATEHOUSE_BRIEF_FILE")|$(basename "$GATEHOUSE_REPORT_FILE")" | grep -q . && leak "see beside the brief"
fi
echo "attacks done as $(id -u)"
`;

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
let h: Harness;

const scenario = (work: Record<string, unknown>, files: Record<string, string> = {}) =>
  makeScenario(h, work, { files: { "attack.sh": ATTACK, ...files } });

describeAsRoot("the sandbox, attacked from the agent step and from a check", () => {
  sandboxedHarness((made) => {
    h = made;
  });

  it("runs as an unprivileged user, and every attack on the platform and the machine fails", async () => {
    expect(h.deps.sandbox.kind).toBe("bwrap");
    expect(h.deps.runAs?.uid).toBeGreaterThan(0);
    // Another Work, whose run left a worktree and briefs behind.
    const other = await scenario({ checkDefaults: [check("ok", "echo other > other.txt")] });
    expect((await dispatchAndSettle(h, other.task.id)).run.ending).toBe("accepted");
    const args = [h.dataDir, process.cwd(), String(process.pid), worktreeDirOf(h.dataDir, other.task.id)]
      .map(quote)
      .join(" ");
    const s = await scenario({
      agentCommand: `bash attack.sh ${args}`,
      checkDefaults: [check("attack", `bash attack.sh ${args}`)],
    });
    await setSecret(SYSTEM_ACTOR, s.work.id, "API_KEY", { value: "s3cr3t-value-42" });
    expect(fs.existsSync(path.join(h.dataDir, "secret.key"))).toBe(true);

    const detail = await dispatchAndSettle(h, s.task.id);
    const agentTail = detail.attempts[0].agentLogTail ?? "";
    const checkTail = detail.attempts[0].results[0].logTail ?? "";
    expect(agentTail).toContain(`attacks done as ${h.deps.runAs!.uid}`);
    expect(checkTail).toContain(`attacks done as ${h.deps.runAs!.uid}`);
    expect(agentTail).not.toContain("LEAK");
    expect(checkTail).not.toContain("LEAK");
    expect(detail.run.ending).toBe("accepted");
    for (const planted of ["/usr/local/bin/gatehouse-planted", "/etc/gatehouse-planted", "planted"])
      expect(fs.existsSync(planted)).toBe(false);
    expect(fs.existsSync(path.join(worktreeDirOf(h.dataDir, other.task.id), "planted"))).toBe(false);
    // On PostgreSQL (npm run test:pg) the database is not a file of the data dir.
    if (!process.env.TEST_DATABASE_URL)
      expect(fs.readFileSync(path.join(h.dataDir, "gatehouse.db")).subarray(0, 15).toString()).toBe("SQLite format 3");
  });

  it("the agent and the checks never share a HOME: nothing reaches a held-out check, nor the next agent", async () => {
    const s = await scenario({
      maxGateAttempts: 2,
      // Attempt 1: the agent leaves a note in its HOME and in /tmp. Attempt 2: it looks for what the checks left.
      agentCommand: [
        'if [ "$GATEHOUSE_ATTEMPT" = 1 ]; then echo planted > "$HOME/agent-note"; echo planted > ' +
          "/tmp/agent-note; exit 0; fi",
        'if ls -A "$HOME" | grep -q check-note || [ -e /tmp/check-note ]; then echo "LEAK: the ' +
          "checks' HOME reached the agent\"; exit 1; fi",
        "echo fixed > fixed.txt",
      ].join("\n"),
      checkDefaults: [
        check(
          "held-out",
          'echo planted > "$HOME/check-note"; echo planted > /tmp/check-note; if [ -e ' +
            '"$HOME/agent-note" ] || [ -e /tmp/agent-note ]; then echo "LEAK: the agent reached a ' +
            'held-out check"; exit 1; fi; echo clean',
          { hidden: true },
        ),
        check("fixed", "test -e fixed.txt"),
      ],
    });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(detail.attempts.map((a) => a.agentVerdict)).toEqual(["passed", "passed"]);
    expect(detail.attempts[1].agentLogTail ?? "").not.toContain("LEAK");
    for (const a of detail.attempts) expect(a.results.find((r) => r.checkId === "held-out")?.message).toBe("clean");
    expect(detail.run.ending).toBe("accepted");
    // The agent's HOME is kept for its Work; the checks' went with their attempt.
    expect(fs.readFileSync(path.join(h.dataDir, "home", "agents", s.work.id, "agent-note"), "utf8")).toBe("planted\n");
    for (const n of ["1", "2"]) expect(fs.existsSync(path.join(h.dataDir, "run-files", detail.run.id, n))).toBe(false);
  });

  it("the honest twin: an agent edits, commits and uses mktemp; a real node --test suite passes", async () => {
    const s = await scenario(
      {
        agentCommand: [
          'scratch=$(mktemp) && echo "draft" > "$scratch" && test -s "$scratch"',
          "sed -i 's/return a - b/return a + b/' src/add.js",
          "git add src/add.js && git -c user.name=Agent -c user.email=agent@example.invalid commit -qm 'fix add'",
          "git log -1 --format=%s",
        ].join("\n"),
        checkDefaults: [check("unit", "node --test", { kind: "test" })],
      },
      {
        "src/add.js": "exports.add = (a, b) => { return a - b; };\n",
        "test/add.test.js":
          'const test = require("node:test");\nconst assert = require("node:assert");\nconst { add ' +
          '} = require("../src/add.js");\ntest("adds", () => assert.strictEqual(add(2, 3), 5));\n',
      },
    );
    const detail = await dispatchAndSettle(h, s.task.id);
    expect([detail.attempts[0].agentVerdict, detail.attempts[0].agentMessage]).toEqual(["passed", "fix add"]);
    expect(detail.attempts[0].results[0]).toMatchObject({ verdict: "passed", tests: { passed: 1, total: 1 } });
    expect(detail.run.ending).toBe("accepted");
  });

  it("the honest twin: a pytest suite passes, with the toolchain bound in by the Work's sandboxMounts", async (t) => {
    // The machine's pytest (pyenv's, under /root, is out of the sandbox's user's reach) copied for the system
    // python3 into a folder outside the data dir, which the Work binds read-only, as a team binds a toolchain.
    const toolchain = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-pytest-"));
    fs.chmodSync(toolchain, 0o755);
    const python = copyPytestTo(path.join(toolchain, "site"));
    if (!python) {
      fs.rmSync(toolchain, { recursive: true, force: true });
      t.skip("skipped: no python3 with pytest on this machine");
      return;
    }
    try {
      const s = await scenario(
        {
          checkDefaults: [check("pytest", `${python} -m pytest -q -p no:cacheprovider`, { kind: "test" })],
          sandboxMounts: [{ path: toolchain, mode: "ro" }],
        },
        { "test_add.py": "def test_add():\n    assert 2 + 3 == 5\n" },
      );
      const detail = await dispatchAndSettle(h, s.task.id);
      expect(detail.attempts[0].results[0]).toMatchObject({ verdict: "passed", tests: { passed: 1 } });
    } finally {
      fs.rmSync(toolchain, { recursive: true, force: true });
    }
  });

  it("no process outlives its command inside the sandbox: a detached child is gone, a timeout ends \
it all", async () => {
    const token = `sandbox-orphan-${process.pid}-${Date.now()}`;
    const s = await scenario({
      agentCommand: `setsid bash -c 'exec -a ${token} sleep 300' </dev/null >/dev/null 2>&1 & echo started`,
      checkDefaults: [
        check("hangs", `(setsid bash -c 'exec -a ${token}-check sleep 300' &) ; sleep 300`, {
          timeoutSec: 1,
          required: false,
        }),
      ],
    });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(detail.attempts[0].agentVerdict).toBe("passed");
    expect(detail.attempts[0].results[0].verdict).toBe("timeout");
    expect(processesCarrying(token)).toEqual([]);
  });
});
