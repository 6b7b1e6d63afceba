// The SQLite connection is set up (WAL, synchronous NORMAL, foreign keys) as it opens, before its first
// statement, whatever that statement is: a server whose first database use is a transaction must not
// have the set-up land inside it (SQLite refuses to change the safety level there).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { getDb, setDb, type Db } from "./client";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

// The process-wide client, as a server that has just started gets it, on a fresh data dir.
function freshProcessDb(): Db {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-client-"));
  const saved = { dataDir: process.env.GATEHOUSE_DATA_DIR, url: process.env.DATABASE_URL };
  process.env.GATEHOUSE_DATA_DIR = dir;
  delete process.env.DATABASE_URL;
  setDb(undefined as unknown as Db);
  const db = getDb();
  cleanups.push(async () => {
    await db.$disconnect();
    setDb(undefined as unknown as Db);
    process.env.GATEHOUSE_DATA_DIR = saved.dataDir;
    if (saved.url !== undefined) process.env.DATABASE_URL = saved.url;
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return db;
}

describe("the SQLite client", () => {
  it("a transaction as the very first use runs on an already tuned connection", async () => {
    const db = freshProcessDb();
    const inside = await db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe("CREATE TABLE parent (id INTEGER PRIMARY KEY)");
      await tx.$executeRawUnsafe(
        "CREATE TABLE child (id INTEGER PRIMARY KEY, parentId INTEGER NOT NULL REFERENCES parent(id))",
      );
      return tx.$queryRawUnsafe("PRAGMA synchronous");
    });
    expect(inside).toEqual([{ synchronous: 1n }]);
    expect(await db.$queryRawUnsafe("PRAGMA journal_mode")).toEqual([{ journal_mode: "wal" }]);
    await expect(db.$executeRawUnsafe("INSERT INTO child (id, parentId) VALUES (1, 2)")).rejects.toThrow(
      /FOREIGN KEY/i,
    );
  });
});
