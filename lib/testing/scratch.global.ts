// Vitest global setup: the root of every test's scratch folders (lib/testing/scratch.ts), made before the
// workers start (they inherit its name through the environment) and removed with all it holds at the end.
// Traversable by every user, as /tmp is: the sandbox's user clones test repositories made under it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SCRATCH_ROOT_ENV } from "./scratch";

export default function setup(): () => void {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-vitest-"));
  fs.chmodSync(root, 0o755);
  process.env[SCRATCH_ROOT_ENV] = root;
  return () => fs.rmSync(root, { recursive: true, force: true });
}
