// `npm run bench`: Gatehouse's speed as ratios against baselines measured in the same run.
// Not part of `npm test`. Prints a table and writes .bench/results.json.
import fs from "node:fs";
import os from "node:os";
import {
  benchChecksFloor,
  benchFlood,
  benchSandbox,
  benchSandboxFloor,
  benchTrivialChecks,
  FLOODS,
  type BenchRow,
} from "./runner-bench";
import { benchPages } from "./pages-bench";
import { benchCheckHistory } from "./check-history-bench";
import { benchJunit } from "./junit-bench";
import { benchScale } from "./scale-bench";
import { benchProof } from "./proof-bench";
import { benchViewers } from "./viewers-bench";
import { benchGrowth } from "./growth-bench";
import {
  benchAttemptEnd,
  benchDispatchWrites,
  benchDirectRead,
  benchDirectTransaction,
  benchQueryPath,
  benchResultRows,
  benchRunChanges,
} from "./query-path-bench";
import { benchCheckoutsTogether, benchFingerprint } from "./fingerprint-bench";
import { benchCliStart } from "./cli-bench";

async function main() {
  const only = process.argv[2];
  const rows: BenchRow[] = [];
  const machine =
    `${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} ` +
    `GB, Node ${process.version}`;
  console.log(`Gatehouse benchmarks on ${machine}\n`);
  if (!only || only === "runner") {
    rows.push(await benchTrivialChecks(9));
    print(rows.at(-1)!);
  }
  if (!only || only === "runner" || only === "floor") {
    rows.push(await benchChecksFloor(9));
    print(rows.at(-1)!);
  }
  // What one model query costs against raw SQL (`npm run bench -- queries`; in the default run on SQLite).
  if (!only || only === "runner" || only === "queries") {
    rows.push(await benchQueryPath("sqlite"));
    print(rows.at(-1)!);
    rows.push(await benchResultRows("sqlite"));
    print(rows.at(-1)!);
    rows.push(await benchRunChanges("sqlite"));
    print(rows.at(-1)!);
    rows.push(await benchDispatchWrites("sqlite"));
    print(rows.at(-1)!);
    rows.push(await benchAttemptEnd("sqlite"));
    print(rows.at(-1)!);
  }
  if (only === "queries" || only === "scale") {
    rows.push(await benchQueryPath("postgres"));
    print(rows.at(-1)!);
    rows.push(await benchDirectRead());
    print(rows.at(-1)!);
    rows.push(await benchDirectTransaction());
    print(rows.at(-1)!);
  }
  if (only === "queries") {
    rows.push(await benchResultRows("postgres"));
    print(rows.at(-1)!);
    rows.push(await benchRunChanges("postgres"));
    print(rows.at(-1)!);
    rows.push(await benchDispatchWrites("postgres"));
    print(rows.at(-1)!);
    rows.push(await benchAttemptEnd("postgres"));
    print(rows.at(-1)!);
  }
  if (!only || only === "runner" || only === "sandbox") {
    rows.push(await benchSandboxFloor(40));
    print(rows.at(-1)!);
    rows.push(await benchSandbox(9));
    print(rows.at(-1)!);
  }
  // Before the fingerprint: the disk is still busy for a while after that one's 15,000 files are removed.
  if (!only || only === "runner" || only === "checkouts") {
    rows.push(await benchCheckoutsTogether(2_000, 4, 5));
    print(rows.at(-1)!);
  }
  if (!only || only === "runner" || only === "fingerprint") {
    rows.push(await benchFingerprint(15_000, 7));
    print(rows.at(-1)!);
  }
  if (!only || only === "runner" || only === "floods") {
    for (const [label, command] of Object.entries(FLOODS)) {
      rows.push(await benchFlood(label, command, 11));
      print(rows.at(-1)!);
    }
  }
  // Not part of the default run: it needs PostgreSQL and takes minutes (`npm run bench -- scale [runs] [slots]
  // [host]`; `host`: the second worker in the host's network too, reaching PostgreSQL directly).
  if (only === "scale") {
    const onHost = process.argv[5] === "host";
    for (const row of await benchScale(Number(process.argv[3]) || 200, Number(process.argv[4]) || 4, { onHost })) {
      rows.push(row);
      print(row);
    }
  }
  if (!only || only === "proof") {
    for (const row of await benchProof(5)) {
      rows.push(row);
      print(row);
    }
  }
  // PostgreSQL and one worker (`npm run bench -- viewers`); also part of `scale`.
  if (only === "viewers") {
    for (const row of await benchViewers()) {
      rows.push(row);
      print(row);
    }
  }
  // SQLite and PostgreSQL, 100 to 100,000 runs (`npm run bench -- growth [sizes…]`); minutes of seeding.
  if (only === "growth") {
    // `growth sqlite|postgres 100 100000`: one provider, those sizes, without the checks and log parts.
    const args = process.argv.slice(3);
    const provider = args.find((a) => a === "sqlite" || a === "postgres");
    const sizes = args.map(Number).filter(Boolean);
    const growth = await benchGrowth(sizes.length ? sizes : undefined, provider ? [provider] : undefined, !provider);
    for (const row of growth) {
      rows.push(row);
      print(row);
    }
  }
  if (!only || only === "pages") {
    for (const row of await benchPages(5)) {
      rows.push(row);
      print(row);
    }
  }
  if (!only || only === "junit") {
    for (const row of await benchJunit(9)) {
      rows.push(row);
      print(row);
    }
  }
  if (!only || only === "pages" || only === "history") {
    for (const row of await benchCheckHistory(5)) {
      rows.push(row);
      print(row);
    }
  }
  if (!only || only === "cli") {
    for (const row of await benchCliStart(15)) {
      rows.push(row);
      print(row);
    }
  }
  fs.mkdirSync(".bench", { recursive: true });
  fs.writeFileSync(".bench/results.json", JSON.stringify({ machine, at: new Date().toISOString(), rows }, null, 2));
}

function print(row: BenchRow) {
  console.log(
    `${row.name}\n  subject ${row.subjectMs.toFixed(0)} ms · baseline ${row.baselineMs.toFixed(0)} ` +
      `ms · ratio ${row.ratio.toFixed(2)}${row.extra ? ` · ${row.extra}` : ""}\n`,
  );
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
