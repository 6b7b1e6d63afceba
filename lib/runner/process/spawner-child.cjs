// The spawner in JavaScript: the fallback when the native one (native/spawner.c) could not be built.
// A small helper process that starts commands for the server; forking costs in proportion to the
// forking process's memory, and the server is large while this process is small. Same protocol as the
// native spawner: requests of NUL-terminated fields
//   "S" id cwd outPath errPath stdinPath user file argc arg... envc NAME=value...
// (user "uid:gid" runs the command as that user; empty: as this process)
// answered by lines "P id pid pipeBytes", "E id message", "X id code signal" (code -1 when a signal ended it).
"use strict";
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");

const send = (line) => process.stdout.write(line + "\n");
let pending = Buffer.alloc(0);

function take(fields) {
  if (fields.length < 9) return null;
  const argc = Number(fields[8]);
  if (fields.length < 10 + argc) return null;
  const envc = Number(fields[9 + argc]);
  if (fields.length < 10 + argc + envc) return null;
  return 10 + argc + envc;
}

function start(f) {
  const id = f[1];
  const argc = Number(f[8]);
  const args = f.slice(9, 9 + argc);
  const user = f[6] ? f[6].split(":").map(Number) : null;
  const env = {};
  for (const entry of f.slice(10 + argc, 10 + argc + Number(f[9 + argc]))) {
    const at = entry.indexOf("=");
    if (at > 0) env[entry.slice(0, at)] = entry.slice(at + 1);
  }
  let out = null;
  let err = null;
  let input = null;
  try {
    out = fs.openSync(f[3], fs.constants.O_WRONLY);
    if (f[4]) err = fs.openSync(f[4], fs.constants.O_WRONLY);
    if (f[5]) input = fs.openSync(f[5], "r");
    const child = spawn(args[0], args.slice(1), {
      cwd: f[2],
      env,
      detached: true,
      stdio: [input ?? "ignore", out, err ?? out],
      ...(user ? { uid: user[0], gid: user[1] } : {}),
    });
    child.on("error", (error) => send(`E ${id} ${error.message}`));
    child.on("exit", (code, signal) =>
      send(`X ${id} ${code === null ? -1 : code} ${signal ? os.constants.signals[signal] : 0}`),
    );
    // Node cannot resize a pipe: the capacity is the kernel's default, reported as unknown (0).
    if (child.pid) send(`P ${id} ${child.pid} 0`);
  } catch (error) {
    send(`E ${id} ${error.message}`);
  } finally {
    if (out !== null) fs.closeSync(out);
    if (err !== null) fs.closeSync(err);
    if (input !== null) fs.closeSync(input);
  }
}

process.stdin.on("data", (chunk) => {
  pending = Buffer.concat([pending, chunk]);
  for (;;) {
    const fields = [];
    let pos = 0;
    let used = null;
    while (used === null) {
      const end = pending.indexOf(0, pos);
      if (end === -1) break;
      fields.push(pending.toString("utf8", pos, end));
      pos = end + 1;
      if (take(fields) === fields.length) used = pos;
    }
    if (used === null) return;
    pending = pending.subarray(used);
    start(fields);
  }
});
process.stdin.on("end", () => process.exit(0));
