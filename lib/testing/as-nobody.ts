// Test helper: calls a function of one of Gatehouse's modules in a process of its own running as `nobody`
// (needs root), as a server that is not root would, with a data dir of its own. `call` is JavaScript run with
// the module bound to `m`, whose value (awaited) is printed as JSON and returned; a rejection comes back as
// `{ error: message }`. The process exits once it has answered (a spawner it started would keep it up).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const NOBODY = 65534;

export function callAsNobody(modulePath: string, call: string): unknown {
  const code =
    `const m = require(${JSON.stringify(modulePath)});\n` +
    `Promise.resolve().then(() => ${call}).then((value) => value, (error) => ({ error: error.message }))` +
    ".then((answer) => { console.log(JSON.stringify(answer)); process.exit(0); });";
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-as-nobody-"));
  try {
    fs.chownSync(dataDir, NOBODY, NOBODY);
    const child = spawnSync(process.execPath, ["--import", "tsx", "-e", code], {
      uid: NOBODY,
      gid: NOBODY,
      encoding: "utf8",
      env: { ...process.env, GATEHOUSE_DATA_DIR: dataDir },
      timeout: 60_000,
    });
    if (child.status !== 0) throw new Error(`the call as nobody did not run: ${child.stderr}`);
    return JSON.parse(child.stdout.trim().split("\n").at(-1) ?? "null");
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
