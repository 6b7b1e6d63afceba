// Vitest global setup: the native spawner is the only way commands start, so the tests run the one
// built from the current spawner.c (rebuilt when the source is newer; the install builds it too). A
// build that fails stops the run with the compiler's complaint.
import { execFileSync } from "node:child_process";
import path from "node:path";

export default function setup(): void {
  execFileSync(process.execPath, [path.join(__dirname, "..", "..", "scripts", "build-native.mjs")], {
    stdio: "inherit",
  });
}
