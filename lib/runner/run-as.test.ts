// GATEHOUSE_RUN_AS: checks, agents and git run as an unprivileged user (here `nobody`), which cannot
// read the platform's files in the data dir: the database, the secret key, the logs.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SYSTEM_ACTOR } from "../auth/actor";
import { setSecret } from "../services/secrets";
import { describeAsRoot, isRoot } from "../testing/needs-root";
import { createHarness, dispatchAndSettle, makeScenario, type Harness } from "../testing/runner-harness";
import { giveTo, resolveRunAs } from "./run-as";

const nobody = isRoot ? resolveRunAs({ GATEHOUSE_RUN_AS: "nobody" }) : null;
const check = (id: string, command: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: id,
  kind: "custom",
  command,
  required: true,
  ...extra,
});

let h: Harness;

const scenario = (work: Record<string, unknown>, files?: Record<string, string>) => makeScenario(h, work, { files });

describeAsRoot("running checks as another user", () => {
  beforeAll(async () => {
    process.env.GATEHOUSE_RUN_AS = "nobody";
    h = await createHarness({ runAs: nobody });
  });
  afterAll(async () => {
    delete process.env.GATEHOUSE_RUN_AS;
    await h?.cleanup();
  });

  it("runs checks and the agent as that user, in a worktree it owns, where the agent can commit", async () => {
    const s = await scenario({
      checkDefaults: [
        check("whoami", "id -u", { expectStdout: String(nobody!.uid) }),
        check("writes", "echo built > out.txt && test -s out.txt"),
      ],
      agentCommand: 'echo "fix" > fix.txt && git add fix.txt && git commit -qm "agent fix" && id -u',
    });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(detail.attempts[0].agentVerdict).toBe("passed");
    expect(detail.attempts[0].agentMessage).toBe(String(nobody!.uid));
    expect(detail.attempts[0].results.map((r) => [r.checkId, r.verdict])).toEqual([
      ["whoami", "passed"],
      ["writes", "passed"],
    ]);
    expect(detail.run.ending).toBe("accepted");
    expect(fs.statSync(s.worktree).uid).toBe(nobody!.uid);
  });

  it("a check cannot read the database or the secret key, nor list the logs or the data dir", async () => {
    const s = await scenario({
      checkDefaults: [
        check(
          "snoop",
          'for f in "$HOME/../gatehouse.db" "$HOME/../secret.key"; do if cat "$f" >/dev/null 2>&1; ' +
            'then echo "readable: $f"; exit 1; fi; done; if ls "$HOME/../logs" >/dev/null 2>&1 || ls ' +
            '"$HOME/.." >/dev/null 2>&1; then echo "listable"; exit 1; fi; echo unreadable',
        ),
      ],
    });
    await setSecret(SYSTEM_ACTOR, s.work.id, "API_KEY", { value: "s3cr3t-value-42" });
    expect(fs.existsSync(path.join(h.dataDir, "secret.key"))).toBe(true);
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(detail.attempts[0].results[0].message).toBe("unreadable");
    expect(detail.attempts[0].results[0].verdict).toBe("passed");
  });

  it("a secret listed in envPassthrough still reaches the check", async () => {
    const s = await scenario({
      checkDefaults: [
        check("uses", 'test "$API_KEY" = "s3cr3t-value-42" && echo has-it', { envPassthrough: ["API_KEY"] }),
      ],
    });
    await setSecret(SYSTEM_ACTOR, s.work.id, "API_KEY", { value: "s3cr3t-value-42" });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(detail.attempts[0].results[0].verdict).toBe("passed");
  });

  // `_protected` puts the start commit's gate files back in a scratch worktree and runs the check again there:
  // a folder the change removed is made again, and the check (as this user) writes beside the file put back,
  // as a test runner writes its cache beside a conftest.py.
  it("a gate file put back in a folder the change removed: the check run again can write in that folder", async () => {
    const runner =
      '#!/bin/sh\nfor f in $(find tests -name conftest.py); do echo seen > "${f%/*}/.seen" || exit 1; done\n';
    const s = await scenario(
      {
        checkDefaults: [check("tests", 'chmod +x bin/pytest && PATH="$PWD/bin:$PATH" pytest')],
        agentCommand:
          "git rm -rq tests/legacy && mkdir -p tests && printf '# all\\n' > tests/conftest.py && " +
          "git add -A && git commit -qm 'one conftest'",
      },
      { "bin/pytest": runner, "tests/legacy/conftest.py": "# legacy\n", "README.md": "tests\n" },
    );
    const detail = await dispatchAndSettle(h, s.task.id);
    const rows = Object.fromEntries(detail.attempts[0].results.map((r) => [r.checkId, r]));
    expect(rows.tests.verdict).toBe("passed");
    expect(rows._protected?.message).toContain("tests/legacy/conftest.py");
    expect(rows._protected?.verdict, rows._protected?.message ?? "").toBe("passed");
  });
});

describeAsRoot("giveTo", () => {
  it("hands over a link in the path's place as the link, never the file it leads to", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-give-"));
    try {
      const rootsFile = path.join(dir, "roots-file");
      fs.writeFileSync(rootsFile, "the server's\n");
      const planted = path.join(dir, "made-by-the-platform");
      fs.symlinkSync(rootsFile, planted);
      giveTo(planted, nobody);
      expect(fs.statSync(rootsFile).uid).toBe(0);
      expect(fs.lstatSync(planted).uid).toBe(nobody!.uid);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("resolveRunAs", () => {
  it("is off when unset", () => {
    expect(resolveRunAs({})).toBeNull();
  });

  // The other side of the root-only suite, as an ordinary user sees it (whoever runs the tests: the process's
  // uid is what the rule reads).
  it("refuses to start when the server is not root", () => {
    const uid = vi.spyOn(process, "getuid").mockReturnValue(1000);
    try {
      expect(() => resolveRunAs({ GATEHOUSE_RUN_AS: "nobody" })).toThrow(/needs the server to run as root/);
    } finally {
      uid.mockRestore();
    }
  });
});

describeAsRoot("resolveRunAs as root", () => {
  it("refuses root and unknown users", () => {
    expect(() => resolveRunAs({ GATEHOUSE_RUN_AS: "root" })).toThrow(/not root/);
    expect(() => resolveRunAs({ GATEHOUSE_RUN_AS: "no-such-user-here" })).toThrow(/no user/);
  });
});
