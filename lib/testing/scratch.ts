// Test helper: a folder for a test's throwaway files, under one root that the vitest run removes when it
// ends (lib/testing/scratch.global.ts), so what a test does not clean up itself does not pile up in /tmp.
// Outside vitest (the benches), the system's temp folder, removed when the process exits.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const SCRATCH_ROOT_ENV = "GATEHOUSE_TEST_SCRATCH";

const outsideRoot = new Set<string>();

export function scratchDir(prefix: string): string {
  const root = process.env[SCRATCH_ROOT_ENV];
  if (root) return fs.mkdtempSync(path.join(root, prefix));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  if (outsideRoot.size === 0)
    process.once("exit", () => {
      for (const made of outsideRoot) fs.rmSync(made, { recursive: true, force: true });
    });
  outsideRoot.add(dir);
  return dir;
}
