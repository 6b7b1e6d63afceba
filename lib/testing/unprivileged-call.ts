// Test helper: calls a function of one of Gatehouse's modules in a process of its own that file modes bind,
// as they bind a server that is not root (needs root): root without the capabilities that override them
// (`setpriv` drops CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH from its bounding set), so a folder or file of mode
// 000 cannot be opened, while the install itself — root's, wherever the repository was cloned — stays
// readable. Sandbox off and no run-as user: the process runs everything as itself, with a data dir of its own.
// `call` is JavaScript run with the module bound to `m`, whose value (awaited) is printed as JSON and
// returned; a rejection comes back as `{ error: message }`. The process exits once it has answered (a spawner
// it started would keep it up).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export function callUnprivileged(modulePath: string, call: string): unknown {
  const code =
    `const m = require(${JSON.stringify(modulePath)});\n` +
    `Promise.resolve().then(() => ${call}).then((value) => value, (error) => ({ error: error.message }))` +
    ".then((answer) => { console.log(JSON.stringify(answer)); process.exit(0); });";
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-unprivileged-"));
  const { GATEHOUSE_RUN_AS: _runAs, ...env } = process.env;
  try {
    const child = spawnSync(
      "setpriv",
      ["--bounding-set=-dac_override,-dac_read_search", process.execPath, "--import", "tsx", "-e", code],
      {
        encoding: "utf8",
        env: { ...env, GATEHOUSE_DATA_DIR: dataDir, GATEHOUSE_SANDBOX: "off" },
        timeout: 60_000,
      },
    );
    if (child.status !== 0) throw new Error(`the unprivileged call did not run: ${child.error ?? child.stderr}`);
    return JSON.parse(child.stdout.trim().split("\n").at(-1) ?? "null");
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
