// Vitest global setup: the native spawner is the only way commands start, so the tests run the one
// built from the current spawner.c (rebuilt when the source is newer; the install builds it too). A
// build that fails stops the run with the compiler's complaint. The `gatehouse` CLI's bundle is rebuilt
// when a source of it is newer, so the CLI tests run what an install runs, built from these sources.
import { execFileSync } from "node:child_process";
import path from "node:path";

export default function setup(): void {
  const scripts = path.join(__dirname, "..", "..", "scripts");
  execFileSync(process.execPath, [path.join(scripts, "build-native.mjs")], { stdio: "inherit" });
  const fresh = `import("./cli-bundle.mjs").then((m) => process.exit(m.freshBundle("../lib/cli/dist") ? 0 : 1))`;
  try {
    execFileSync(process.execPath, ["--input-type=module", "-e", fresh], { cwd: scripts, stdio: "ignore" });
  } catch {
    execFileSync(process.execPath, [path.join(scripts, "build-cli.mjs")], { stdio: "inherit" });
  }
}
