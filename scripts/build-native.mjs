// Builds the native spawner (lib/runner/process/native/spawner.c) when a C compiler is available.
// Without it Gatehouse uses the JavaScript spawner: everything works, starting each command costs more.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const source = path.join(root, "lib", "runner", "process", "native", "spawner.c");
const target = path.join(root, "lib", "runner", "process", "native", "gatehouse-spawner");

export function buildNative({ quiet = false } = {}) {
  if (fs.existsSync(target) && fs.statSync(target).mtimeMs >= fs.statSync(source).mtimeMs) return true;
  for (const cc of [process.env.CC, "cc", "gcc", "clang"].filter(Boolean)) {
    try {
      execFileSync(cc, ["-O2", "-Wall", "-o", `${target}.tmp`, source], { stdio: "pipe" });
      fs.renameSync(`${target}.tmp`, target);
      if (!quiet) console.log(`gatehouse: built the native spawner with ${cc}`);
      return true;
    } catch {
      /* try the next compiler */
    }
  }
  console.log(
    "gatehouse: no C compiler could build the native spawner; using the JavaScript one (commands start a little slower)",
  );
  return false;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) buildNative();
