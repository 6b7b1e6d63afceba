// What proof costs (issue 27 item 4): an attempt whose change fixes the code and edits one test file, with
// the proof rows on (`_tests-kept` and `_fails-without-change` run again), against the same attempt with
// them off (its checks alone), on a generated suite: node:test (a few hundred tests) and, when python3 has
// pytest, a pytest suite of about 200. Both sides interleaved in one run; medians; one new task per
// dispatch (so each starts from the base commit). The suite's own time, as the check row records it, too.
import fs from "node:fs";
import os from "node:os";
import { copyPytestTo } from "../../lib/testing/reachable-pytest";
import { SYSTEM_ACTOR } from "../../lib/auth/actor";
import { listAttempts, listResults, findRun } from "../../lib/db/runs";
import { checkLogPathOf } from "../../lib/runner/paths";
import { configureRuntime, defaultRunnerDeps } from "../../lib/runner/runtime";
import { dispatchTask } from "../../lib/services/runs";
import { createTask } from "../../lib/services/tasks";
import { createWork } from "../../lib/services/works";
import { makeGitRepo } from "../../lib/testing/git-repo";
import { createTestDb } from "../../lib/testing/test-db";
import { BENCH_DATA_PARENT, type BenchRow } from "./runner-bench";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

type Suite = {
  label: string;
  files: Record<string, string>;
  command: string;
  // What the agent writes: the fix, and a test that fails without it appended to one test file.
  fix: Record<string, string>;
  append: Record<string, string>;
};

// Each test does a little real work (a few thousand additions), as unit tests do.
const WORK_JS = "let s = 0; for (let i = 0; i < 20000; i++) s += i % 7;";

function nodeSuite(files: number, perFile: number): Suite {
  const tree: Record<string, string> = { "src/calc.js": "exports.double = (x) => x + x;\nexports.half = (x) => x;\n" };
  const testFile = (n: number) => {
    const lines = ['const test = require("node:test");', 'const assert = require("node:assert");'];
    lines.push('const { double } = require("../src/calc");');
    for (let i = 0; i < perFile; i++)
      lines.push(`test("file ${n} case ${i}", () => { ${WORK_JS} assert.strictEqual(double(${i}), ${2 * i}); });`);
    return `${lines.join("\n")}\n`;
  };
  for (let n = 1; n <= files; n++) tree[`test/t${String(n).padStart(2, "0")}.test.js`] = testFile(n);
  return {
    label: `node:test, ${files * perFile} tests in ${files} files`,
    files: tree,
    command: "node --test",
    fix: { "src/calc.js": "exports.double = (x) => x + x;\nexports.half = (x) => x / 2;\n" },
    append: {
      "test/t03.test.js":
        'const { half } = require("../src/calc");\ntest("halves", () => assert.strictEqual(half(8), 4));\n',
    },
  };
}

function pytestSuite(python: string, files: number, perFile: number): Suite {
  const tree: Record<string, string> = {
    "calc.py": "def double(x):\n    return x + x\n\ndef half(x):\n    return x\n",
  };
  const testFile = (n: number) => {
    const lines = ["from calc import double", ""];
    for (let i = 0; i < perFile; i++)
      lines.push(
        `def test_f${n}_case_${i}():`,
        "    sum(i % 7 for i in range(3000))",
        `    assert double(${i}) == ${2 * i}`,
        "",
      );
    return `${lines.join("\n")}\n`;
  };
  for (let n = 1; n <= files; n++) tree[`tests/test_m${n}.py`] = testFile(n);
  return {
    label: `pytest, ${files * perFile} tests in ${files} files`,
    files: tree,
    command: `${python} -m pytest -q -p no:cacheprovider`,
    fix: { "calc.py": "def double(x):\n    return x + x\n\ndef half(x):\n    return x / 2\n" },
    append: { "tests/test_m3.py": "from calc import half\n\ndef test_halves():\n    assert half(8) == 4\n" },
  };
}

// pytest for the sandbox's user, in a folder the sandbox shows read-only (/opt: its /tmp and /var/tmp are its own).
const PYTEST_COPY = "/opt/gatehouse-bench-pytest";
const reachablePytest = () => copyPytestTo(PYTEST_COPY);

async function benchSuite(suite: Suite, rounds: number): Promise<BenchRow> {
  const t = await createTestDb({ parentDir: BENCH_DATA_PARENT });
  const repo = makeGitRepo(suite.files);
  try {
    const deps = { ...defaultRunnerDeps(), dataDir: t.dataDir };
    const wholeDeps = { ...deps, wholeProofReruns: true };
    configureRuntime(deps);
    const agent = [
      ...Object.entries(suite.fix).map(([file, text]) => `printf %s ${q(text)} > ${file}`),
      ...Object.entries(suite.append).map(([file, text]) => `printf %s ${q(text)} >> ${file}`),
      "git add -A",
      "git commit -qm fix",
    ].join(" && ");
    const common = {
      repoUrl: repo.dir,
      baseBranch: "main",
      agentCommand: agent,
      profile: "lite",
      protectedPaths: [],
      checkDefaults: [
        {
          id: "tests",
          name: "the suite",
          kind: "test",
          command: suite.command,
          required: true,
          provesChange: true,
          timeoutSec: 600,
        },
      ],
    };
    const proofOn = await createWork(SYSTEM_ACTOR, {
      ...common,
      name: "Proof on",
      requireTests: "required",
      vacuousPolicy: "required",
    });
    const proofOff = await createWork(SYSTEM_ACTOR, {
      ...common,
      name: "Proof off",
      requireTests: "off",
      vacuousPolicy: "off",
    });
    const suiteMs: number[] = [];
    const rowMs: Record<string, number[]> = {};
    const logs: string[] = [];
    const dispatchAndWait = async (workId: string, withProof: boolean, whole = false) => {
      const { executor } = configureRuntime(whole ? wholeDeps : deps);
      const task = await createTask(SYSTEM_ACTOR, workId, { title: "halve", description: "Make half() halve." });
      const started = performance.now();
      const run = await dispatchTask(SYSTEM_ACTOR, task.id);
      await executor.whenSettled(run.id);
      const ms = performance.now() - started;
      const done = await findRun({ id: run.id });
      const [attempt] = await listAttempts({ runId: run.id });
      if (done?.ending !== "accepted") {
        const rows = (await listResults({ attemptId: attempt.id })).map(
          (r) => `${r.checkId} ${r.verdict}: ${r.message}`,
        );
        throw new Error(`bench run ended ${done?.ending}: ${done?.endingReason}\n${rows.join("\n")}`);
      }
      for (const r of await listResults({ attemptId: attempt.id })) {
        if (r.checkId === "tests") suiteMs.push(r.durationMs ?? 0);
        if (withProof && !whole && r.checkId.startsWith("_")) {
          rowMs[r.checkId] = [...(rowMs[r.checkId] ?? []), r.durationMs ?? 0];
          if (r.verdict !== "passed") throw new Error(`${r.checkId} ${r.verdict}: ${r.message}`);
        }
      }
      if (withProof && !whole && logs.length === 0)
        for (const id of ["_tests-kept", "_fails-without-change"]) {
          const log = fs.readFileSync(checkLogPathOf(t.dataDir, run.id, attempt.n, id), "utf8");
          logs.push(`${id}: ${log.split("How the checks ran again:\n")[1]?.trim() ?? "(no note)"}`);
        }
      return ms;
    };
    await dispatchAndWait(proofOn.id, true); // the clone and warm caches
    const subject: number[] = [];
    const baseline: number[] = [];
    const before: number[] = [];
    const sides = [
      async () => baseline.push(await dispatchAndWait(proofOff.id, false)),
      async () => subject.push(await dispatchAndWait(proofOn.id, true)),
      async () => before.push(await dispatchAndWait(proofOn.id, true, true)),
    ];
    // The order rotates from round to round, so no side always runs on a warmer (or busier) machine.
    for (let i = 0; i < rounds; i++) for (let k = 0; k < sides.length; k++) await sides[(i + k) % sides.length]();
    const s = median(subject);
    const b = median(baseline);
    const rows = Object.entries(rowMs)
      .map(([id, ms]) => `${id} ${median(ms)} ms`)
      .join(", ");
    return {
      name: `an attempt editing a test file, proof rows on vs off (${suite.label})`,
      subjectMs: s,
      baselineMs: b,
      ratio: s / b,
      extra: [
        `before test selection (whole commands, one rule after the other) ${median(before).toFixed(0)} ms,`,
        `ratio ${(median(before) / b).toFixed(2)}; the suite alone ${median(suiteMs)} ms (the check row);`,
        `proof rows: ${rows}; load average ${os.loadavg()[0].toFixed(2)}`,
        ...logs.map((l) => `\n  ${l}`),
      ].join(" "),
    };
  } finally {
    repo.cleanup();
    await t.cleanup();
  }
}

export async function benchProof(rounds: number): Promise<BenchRow[]> {
  const rows = [await benchSuite(nodeSuite(8, 40), rounds)];
  console.log(`${rows[0].name}: ratio ${rows[0].ratio.toFixed(2)} (printed again below)`);
  const python = reachablePytest();
  if (python) rows.push(await benchSuite(pytestSuite(python, 6, 34), rounds));
  fs.rmSync(PYTEST_COPY, { recursive: true, force: true });
  return rows;
}
