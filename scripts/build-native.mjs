// Builds the native spawner (lib/runner/process/native/spawner.c), the only way Gatehouse starts
// commands. These machines always have a C compiler (better-sqlite3 is compiled at install too), so
// there is no fallback: when no compiler can build it, the install (and `npm start`) fails, saying why.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const source = path.join(root, "lib", "runner", "process", "native", "spawner.c");
const target = path.join(root, "lib", "runner", "process", "native", "gatehouse-spawner");

// Returns once the spawner is built and newer than its source; throws with every compiler's complaint.
export function buildNative({ quiet = false } = {}) {
  if (fs.existsSync(target) && fs.statSync(target).mtimeMs >= fs.statSync(source).mtimeMs) return;
  const failures = [];
  for (const cc of [process.env.CC, "cc", "gcc", "clang"].filter(Boolean)) {
    try {
      execFileSync(cc, ["-O2", "-Wall", "-o", `${target}.tmp`, source], { stdio: "pipe" });
      fs.renameSync(`${target}.tmp`, target);
      if (!quiet) console.log(`gatehouse: built the native spawner with ${cc}`);
      return;
    } catch (error) {
      const detail = error.stderr?.toString().trim() || error.message;
      failures.push(`${cc}: ${detail}`);
    }
  }
  throw new Error(
    `gatehouse: could not build the native spawner (${path.relative(root, source)}), which ` +
      `Gatehouse needs to run any check.\n` +
      "Install a C compiler (Debian: apt-get install build-essential) and run `node scripts/build-native.mjs`.\n" +
      failures.join("\n"),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    buildNative();
  } catch (error) {
    console.error(`\n${"!".repeat(100)}\n${error.message}\n${"!".repeat(100)}\n`);
    process.exit(1);
  }
}
