// For the tests of the sandbox itself: a harness made with it on, as a default install runs (the other
// tests run without it: vitest.config.mts), and cleaned up with it off again. (Apart from runner-harness.ts,
// which the benches import outside vitest.)
import { afterAll, beforeAll } from "vitest";
import { createHarness, type Harness } from "./runner-harness";

// Registers the hooks in the enclosing describe; `got` receives the harness.
export function sandboxedHarness(got: (h: Harness) => void): void {
  let made: Harness | undefined;
  beforeAll(async () => {
    process.env.GATEHOUSE_SANDBOX = "on";
    made = await createHarness();
    got(made);
  });
  afterAll(async () => {
    process.env.GATEHOUSE_SANDBOX = "off";
    await made?.cleanup();
  });
}
