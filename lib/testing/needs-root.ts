// Tests that switch users need root. Without root they are reported as skipped, with the reason in
// their name; in CI (which runs as root) a suite that could not run fails instead of skipping.
import { describe, it } from "vitest";

export const isRoot = process.getuid?.() === 0;

export function describeAsRoot(name: string, body: () => void): void {
  if (isRoot) describe(name, () => body());
  else if (process.env.CI)
    describe(name, () => {
      it("runs as root, as CI does", () => {
        throw new Error(`"${name}" needs root to switch users, and CI runs as root: this run is not`);
      });
    });
  else describe.skip(`${name} (skipped: needs root to switch users)`, () => body());
}
