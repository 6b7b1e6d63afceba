// Check sources with GATEHOUSE_RUN_AS: the clone is the server's, so the user the agent and checks run as
// can read it but not change it, and cannot reach the run's cache of the sources at all.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { makeCheckSourceRepo } from "../testing/check-source-repos";
import { describeAsRoot, isRoot } from "../testing/needs-root";
import { check, createHarness, dispatchAndSettle, makeScenario, type Harness } from "../testing/runner-harness";
import { resolveRunAs } from "./run-as";

const nobody = isRoot ? resolveRunAs({ GATEHOUSE_RUN_AS: "nobody" }) : null;
let h: Harness;

// The test repositories are made in private temp dirs: let the run-as user read them.
function readableByAll(dir: string): void {
  for (let d = dir; d !== path.dirname(d) && d.startsWith("/tmp/"); d = path.dirname(d)) fs.chmodSync(d, 0o755);
}

describeAsRoot("check sources with a run-as user", () => {
  beforeAll(async () => {
    process.env.GATEHOUSE_RUN_AS = "nobody";
    h = await createHarness({ runAs: nobody });
    fs.chmodSync(h.scratch, 0o777);
  });
  afterAll(async () => {
    delete process.env.GATEHOUSE_RUN_AS;
    await h?.cleanup();
  });

  it("a check cannot write, add to or chmod the clone; the agent cannot reach the cache", async () => {
    const source = makeCheckSourceRepo("v1");
    h.repos.push(source);
    const tries = path.join(h.scratch, "tries");
    const agent = `for t in "${h.dataDir}/checks/$GATEHOUSE_RUN_ID/cache" \
"${h.dataDir}/checks/$GATEHOUSE_RUN_ID/cache/gate.git/HEAD"; do
  if ls "$t" >/dev/null 2>&1 || echo x >> "$t" 2>/dev/null; then echo "reached $t" >> ${tries}; fi
done; echo done > done.txt`;
    const write = (what: string, command: string) =>
      check(what, `if ${command} 2>/dev/null; then echo "${what}: allowed"; exit 1; fi; echo "${what}: refused"`);
    const s = await makeScenario(h, {
      checkDefaults: [
        write("edit", `echo "exit 0" > "$GATEHOUSE_CHECKS_DIR/gate/check.sh"`),
        write("add", `touch "$GATEHOUSE_CHECKS_DIR/gate/new" || touch "$GATEHOUSE_CHECKS_DIR/new"`),
        write("chmod", `chmod -R u+w "$GATEHOUSE_CHECKS_DIR"`),
        write("remove", `rm -rf "$GATEHOUSE_CHECKS_DIR/gate/check.sh"`),
        check("gate", "bash {{checks_dir}}/gate/check.sh"),
      ],
      checkSources: [{ name: "gate", url: source.dir, ref: "main" }],
      agentCommand: agent,
    });
    readableByAll(s.repo.dir);
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(detail.attempts[0].agentVerdict).toBe("passed");
    expect(fs.existsSync(tries) ? fs.readFileSync(tries, "utf8") : "").toBe("");
    expect(detail.attempts[0].results.map((r) => [r.checkId, r.verdict, r.message])).toEqual([
      ["edit", "passed", "edit: refused"],
      ["add", "passed", "add: refused"],
      ["chmod", "passed", "chmod: refused"],
      ["remove", "passed", "remove: refused"],
      ["gate", "passed", "genuine gate v1"],
    ]);
  });
});
