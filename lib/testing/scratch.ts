// Test helper: a folder for a test's throwaway files, under one root that the vitest run removes when it
// ends (lib/testing/scratch.global.ts), so what a test does not clean up itself does not pile up in /tmp.
// Outside vitest (the benches), the system's temp folder.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const SCRATCH_ROOT_ENV = "GATEHOUSE_TEST_SCRATCH";

export function scratchDir(prefix: string): string {
  return fs.mkdtempSync(path.join(process.env[SCRATCH_ROOT_ENV] || os.tmpdir(), prefix));
}
