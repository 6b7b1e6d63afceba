import { describe, expect, it } from "vitest";
import { scriptsOfCommand } from "./command-scripts";

describe("scriptsOfCommand: the scripts of the checkout a check's command runs", () => {
  it.each<[string, string[]]>([
    ["bash scripts/gate.sh", ["scripts/gate.sh"]],
    ["sh ci/check.sh --strict", ["ci/check.sh"]],
    ["./ci/check.sh", ["ci/check.sh"]],
    ["ci/check.sh", ["ci/check.sh"]],
    ["node scripts/verify.mjs", ["scripts/verify.mjs"]],
    ["python tools/lint.py", ["tools/lint.py"]],
    ["python3 -u tools/lint.py src", ["tools/lint.py"]],
    ["npx tsx scripts/check.ts", ["scripts/check.ts"]],
    ["npx --yes tsx scripts/check.ts", ["scripts/check.ts"]],
    ["source env.sh && npm test", ["env.sh"]],
    [". ./env.sh; make", ["env.sh"]],
    ["bash -e -o pipefail scripts/gate.sh", ["scripts/gate.sh"]],
    ["node --require ./setup.js scripts/run.js", ["scripts/run.js"]],
    ["npm ci && bash scripts/gate.sh", ["scripts/gate.sh"]],
    ["make lint || ./scripts/fallback.sh", ["scripts/fallback.sh"]],
    ["cat x | python3 tools/filter.py", ["tools/filter.py"]],
    ["cd tools && ./run.sh", ["tools/run.sh"]],
    ["cd tools; bash ../scripts/a.sh", ["scripts/a.sh"]],
    ["cd a && cd b && node x.js", ["a/b/x.js"]],
    ["CI=1 FOO=bar bash scripts/gate.sh", ["scripts/gate.sh"]],
    ["bash 'scripts/my gate.sh'", ["scripts/my gate.sh"]],
    ['bash "scripts/gate.sh"', ["scripts/gate.sh"]],
    ["bash scripts/a.sh && bash scripts/a.sh", ["scripts/a.sh"]],
    ["bash scripts/a.sh\nnode b.js", ["scripts/a.sh", "b.js"]],
    ["(cd web && ./check.sh)", ["web/check.sh"]],
    ["bash scripts/gate.sh > out.txt 2>&1", ["scripts/gate.sh"]],
    ["exec ./run.sh", ["run.sh"]],
    ["./scripts/gate.sh # runs the gate", ["scripts/gate.sh"]],
    // No file of the checkout:
    ["npm test", []],
    ["bash -c 'exit 0'", []],
    ["node -e 'process.exit(0)'", []],
    ["python -m pytest -q", []],
    ["python3 -c 'print(1)'", []],
    ["/usr/bin/env bash", []],
    ["bash /etc/gate.sh", []],
    ["bash ../outside.sh", []],
    ["bash $GATEHOUSE_CHECKS_DIR/gate.sh", []],
    ['bash "$DIR/gate.sh"', []],
    ["bash scripts/*.sh", []],
    ["bash ~/gate.sh", []],
    ["cd $HOME && ./x.sh", []],
    ["echo bash scripts/gate.sh", []],
    ["grep -rn TODO src", []],
    ["bash", []],
  ])("%j → %j", (command, expected) => {
    expect(scriptsOfCommand(command)).toEqual(expected);
  });

  it("resolves against the check's cwd, and refuses what leaves the checkout", () => {
    expect(scriptsOfCommand("./check.sh", "apps/web")).toEqual(["apps/web/check.sh"]);
    expect(scriptsOfCommand("bash ../../scripts/x.sh", "apps/web")).toEqual(["scripts/x.sh"]);
    expect(scriptsOfCommand("bash ../../../x.sh", "apps/web")).toEqual([]);
  });
});
