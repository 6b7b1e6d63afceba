// Built-ins, placeholders and Work assets in real runs: real worktrees, real processes, the rows a person
// reads (verdict, exit code, message, log) and what a check sees of its directories.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "../auth/actor";
import { uploadAsset } from "../services/assets";
import { locateLog } from "../services/logs";
import { describeAsRoot, isRoot } from "../testing/needs-root";
import { check, createHarness, dispatchAndSettle, makeScenario, type Harness } from "../testing/runner-harness";
import { resolveRunAs } from "./run-as";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.cleanup());

const builtin = (id: string, use: string, params: Record<string, unknown>) => ({
  id,
  name: `${id} passes`,
  kind: "custom",
  required: true,
  timeoutSec: 60,
  use,
  with: params,
});
const rowsOf = (detail: Awaited<ReturnType<typeof dispatchAndSettle>>) =>
  Object.fromEntries(detail.attempts[0].results.map((r) => [r.checkId, r]));

describe("built-ins and placeholders in a real run", () => {
  it("expands {{results_dir}} shell-quoted and sets GATEHOUSE_RESULTS_DIR; a built-in reads from it", async () => {
    // A results directory whose name would run a command if it were pasted into the shell unquoted.
    const resultsDir = "out dir $(touch PWNED)";
    const marker = path.join(h.scratch, "pwned-by-param");
    const s = await makeScenario(
      h,
      {
        resultsDir,
        checkDefaults: [
          check("reads", 'cat {{results_dir}}/result.json && test "$GATEHOUSE_RESULTS_DIR" = {{results_dir}}'),
          builtin("valid", "json_valid", { path: "result.json" }),
          builtin("broken", "json_valid", { path: "broken.json" }),
          builtin("injected", "file_exists", { path: `$(touch ${marker.slice(1)})` }),
          check("sources", "ls {{checks_dir}}", { required: false }),
          check("assets", 'ls "$GATEHOUSE_ASSETS_DIR" {{assets_dir}}', { required: false }),
        ],
      },
      {
        files: {
          [`${resultsDir}/result.json`]: '{"ok": true}\n',
          [`${resultsDir}/broken.json`]: '{"a": [1,\n  2,]}\n',
        },
      },
    );
    const detail = await dispatchAndSettle(h, s.task.id);
    const rows = rowsOf(detail);
    expect([rows.reads.verdict, rows.reads.exitCode]).toEqual(["passed", 0]);
    expect([rows.valid.verdict, rows.valid.exitCode, rows.valid.message]).toEqual([
      "passed",
      null,
      "result.json: valid JSON (13 B)",
    ]);
    expect(rows.valid.durationMs).not.toBeNull();
    expect([rows.broken.verdict, rows.broken.message]).toEqual([
      "failed",
      "broken.json: Unexpected token ] at line 2, column 5",
    ]);
    expect(rows.injected.verdict).toBe("failed");
    expect(rows.sources.verdict).toBe("error");
    expect(rows.sources.message).toBe(
      "{{checks_dir}}: this run has no check sources (the Work has none), so there is no checks directory",
    );
    expect(rows.assets.message).toBe("{{assets_dir}}: this run has no assets directory");
    // Nothing ran from the directory's name or the parameter.
    expect(fs.existsSync(path.join(s.worktree, "PWNED"))).toBe(false);
    expect(fs.existsSync(path.join(s.worktree, resultsDir, "PWNED"))).toBe(false);
    expect(fs.existsSync(marker)).toBe(false);
    // The built-in's log is a log like any other (the full-log route reads it).
    const log = fs.readFileSync((await locateLog(SYSTEM_ACTOR, detail.run.id, "1", "broken")).path, "utf8");
    expect(log).toContain("broken.json: Unexpected token ] at line 2, column 5");
    expect(log).toContain("    2 |   2,]}");
  });

  it("a results directory that does not exist is an error for the checks that use it", async () => {
    const s = await makeScenario(h, {
      resultsDir: "reports",
      checkDefaults: [builtin("report", "file_exists", { path: "summary.md" }), check("plain", "true")],
    });
    const rows = rowsOf(await dispatchAndSettle(h, s.task.id));
    expect([rows.report.verdict, rows.report.message]).toEqual([
      "error",
      '{{results_dir}}: the results directory "reports" does not exist in the checkout',
    ]);
    expect(rows.plain.verdict).toBe("passed");
  });
});

describe("Work assets in a real run", () => {
  it("an uploaded file is in {{assets_dir}} and $GATEHOUSE_ASSETS_DIR, read-only, for each attempt", async () => {
    const s = await makeScenario(h, {
      checkDefaults: [
        check(
          "expected",
          'diff {{assets_dir}}/expected.txt "$GATEHOUSE_ASSETS_DIR/expected.txt" && grep -qx "forty ' +
            'two" {{assets_dir}}/expected.txt && stat -c "%a %n" {{assets_dir}} ' +
            "{{assets_dir}}/expected.txt",
        ),
        builtin("contains", "file_contains", { path: "{{assets_dir}}/expected.txt", strings: ["forty two"] }),
      ],
    });
    const stored = await uploadAsset(SYSTEM_ACTOR, s.work.id, "../../Expected.TXT", Buffer.from("forty two\n"));
    expect(stored.asset.name).toBe("Expected.TXT");
    await uploadAsset(SYSTEM_ACTOR, s.work.id, "expected.txt", Buffer.from("forty two\n"));
    const detail = await dispatchAndSettle(h, s.task.id);
    const rows = rowsOf(detail);
    expect(rows.expected.verdict).toBe("passed");
    expect(rows.expected.logTail).toMatch(/^555 .*\/assets$/m);
    expect(rows.expected.logTail).toMatch(/^444 .*\/assets\/expected\.txt$/m);
    expect(rows.contains.verdict).toBe("passed");
    // The copy is the attempt's own and gone once it ended.
    expect(fs.existsSync(path.join(h.dataDir, "run-files", detail.run.id, "1"))).toBe(false);
  });
});

const nobody = isRoot ? resolveRunAs({ GATEHOUSE_RUN_AS: "nobody" }) : null;
describeAsRoot("assets as seen by a check running as another user", () => {
  let asNobody: Harness;
  beforeAll(async () => {
    asNobody = await createHarness({ runAs: nobody });
  });
  afterAll(async () => asNobody?.cleanup());

  it("reads them and cannot change, remove or add to them", async () => {
    const s = await makeScenario(asNobody, {
      checkDefaults: [
        check("reads", "cat {{assets_dir}}/data.csv"),
        check("writes", "echo changed > {{assets_dir}}/data.csv", { required: false }),
        check("removes", "rm -f {{assets_dir}}/data.csv", { required: false }),
        check("adds", "touch {{assets_dir}}/new.txt", { required: false }),
        check("still", 'test "$(cat {{assets_dir}}/data.csv)" = "a,b"'),
      ],
    });
    await uploadAsset(SYSTEM_ACTOR, s.work.id, "data.csv", Buffer.from("a,b\n"));
    const rows = rowsOf(await dispatchAndSettle(asNobody, s.task.id));
    expect(Object.fromEntries(Object.entries(rows).map(([id, r]) => [id, r.verdict]))).toEqual({
      reads: "passed",
      writes: "failed",
      removes: "failed",
      adds: "failed",
      still: "passed",
    });
  });
});
