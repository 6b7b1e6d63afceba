// Where a run's database time goes (issue 27): one model query through Prisma (its query compiler plans
// every call anew: JSON protocol, WebAssembly, result decoding) against the same row read by raw SQL through
// the same client and connection. A run makes a few dozen model queries, so this is most of a worker's own
// CPU per run. Both sides interleaved, CPU per query of this process (the database's own work is beside it).
import { getDb } from "../../lib/db/client";
import { seedRun, seedTask, seedWork } from "../../lib/testing/seeded-rows";
import { createTestDb } from "../../lib/testing/test-db";
import type { BenchRow } from "./runner-bench";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// `db`: "sqlite" (a fresh test database) or "postgres" (TEST_DATABASE_URL, default the local server).
export async function benchQueryPath(db: "sqlite" | "postgres", queries = 400, rounds = 5): Promise<BenchRow> {
  const previous = process.env.TEST_DATABASE_URL;
  if (db === "postgres") process.env.TEST_DATABASE_URL ??= "postgres://postgres@127.0.0.1:5432/test";
  else delete process.env.TEST_DATABASE_URL;
  const t = await createTestDb();
  try {
    await seedWork("qw");
    await seedTask({ id: "qt", workId: "qw", number: 1 });
    await seedRun({ id: "qr", taskId: "qt", workId: "qw" });
    const client = getDb();
    const cpuPerQuery = async (query: () => Promise<unknown>) => {
      const before = process.cpuUsage();
      for (let i = 0; i < queries; i++) await query();
      const used = process.cpuUsage(before);
      return (used.user + used.system) / 1000 / queries;
    };
    const model = () => client.run.findUnique({ where: { id: "qr" } });
    const raw = () => client.$queryRaw`SELECT * FROM "Run" WHERE "id" = ${"qr"}`;
    await cpuPerQuery(model);
    await cpuPerQuery(raw);
    const subject: number[] = [];
    const baseline: number[] = [];
    for (let i = 0; i < rounds; i++) {
      subject.push(await cpuPerQuery(model));
      baseline.push(await cpuPerQuery(raw));
    }
    const s = median(subject);
    const b = median(baseline);
    return {
      name: `one run read by id on ${db === "sqlite" ? "SQLite" : "PostgreSQL"}: Prisma's findUnique vs raw SQL, CPU a query`,
      subjectMs: s,
      baselineMs: b,
      ratio: s / b,
      extra: `${s.toFixed(2)} vs ${b.toFixed(2)} ms of this process's CPU a query (${queries} × ${rounds} each)`,
    };
  } finally {
    await t.cleanup();
    if (previous === undefined) delete process.env.TEST_DATABASE_URL;
    else process.env.TEST_DATABASE_URL = previous;
  }
}
