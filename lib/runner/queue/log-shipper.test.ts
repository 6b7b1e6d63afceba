// A worker ships a run's logs to the database as they grow. A later attempt of a run this worker shipped
// before (its offsets forgotten when the first turn ended) goes on from what the database has: sending
// attempt 1's log again would break the chunks' uniqueness and stop every later range from shipping.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { listLogChunks } from "../../db/log-chunks";
import { createTestDbWithRun } from "../../testing/seeded-rows";
import type { TestDb } from "../../testing/test-db";
import { checkLogPathOf } from "../paths";
import { LogShipper } from "./log-shipper";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDbWithRun();
});
afterAll(async () => t.cleanup());

const text = async (n: number, name: string) =>
  Buffer.concat((await listLogChunks({ runId: "r", attemptN: n, name, from: 0 })).map((c) => c.bytes)).toString();

describe("LogShipper", () => {
  it("ships a later attempt of a run it shipped before, without sending the earlier one again", async () => {
    const errors = vi.spyOn(console, "error");
    const write = (n: number, name: string, data: string) => {
      const file = checkLogPathOf(t.dataDir, "r", n, name);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.appendFileSync(file, data);
    };
    write(1, "unit", "attempt one\n");
    const first = new LogShipper(t.dataDir);
    await first.ship("r");
    first.forget("r");
    // The run waited for a fix; its next attempt runs on the same worker (or on it after a restart).
    write(2, "unit", "attempt two\n");
    write(1, "unit", "a line written after the first pass\n");
    for (const shipper of [first, new LogShipper(t.dataDir)]) await shipper.ship("r");
    expect(errors).not.toHaveBeenCalled();
    expect(await text(1, "unit")).toBe("attempt one\na line written after the first pass\n");
    expect(await text(2, "unit")).toBe("attempt two\n");
    errors.mockRestore();
  });
});
