import { describe, expect, it } from "vitest";
import { fateOfHeldRun, heartbeatEveryMs, isHeartbeatSilent } from "./workers";

describe("workers", () => {
  it("a heartbeat older than the threshold is silent", () => {
    const now = new Date("2026-01-01T00:01:00Z");
    expect(isHeartbeatSilent(new Date("2026-01-01T00:00:29Z"), now, 30_000)).toBe(true);
    expect(isHeartbeatSilent(new Date("2026-01-01T00:00:31Z"), now, 30_000)).toBe(false);
  });

  it.each([
    [{ hasCheckStarted: false, handBacks: 0, status: "running" as const }, "requeue"],
    [{ hasCheckStarted: false, handBacks: 0, status: "queued" as const }, "requeue"],
    [{ hasCheckStarted: false, handBacks: 1, status: "running" as const }, "end"],
    [{ hasCheckStarted: true, handBacks: 0, status: "running" as const }, "end"],
    [{ hasCheckStarted: true, handBacks: 0, status: "waiting" as const }, "release"],
    [{ hasCheckStarted: false, handBacks: 0, status: "finished" as const }, "release"],
  ])("a held run %j is %s", (input, fate) => {
    expect(fateOfHeldRun(input)).toBe(fate);
  });

  it("beats at least four times per threshold, at most every 5 s", () => {
    expect(heartbeatEveryMs(30_000)).toBe(5000);
    expect(heartbeatEveryMs(2000)).toBe(500);
    expect(heartbeatEveryMs(100)).toBe(200);
  });
});
