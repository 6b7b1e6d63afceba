import { describe, expect, it } from "vitest";
import { isRunLive } from "./run-json";

// The dashboard polls a run only while the runner works on it; a run waiting for a person or ended is not polled.
describe("isRunLive", () => {
  it.each([
    ["queued", true],
    ["running", true],
    ["waiting", false],
    ["finished", false],
  ] as const)("%s → %s", (status, live) => expect(isRunLive({ status })).toBe(live));
});
