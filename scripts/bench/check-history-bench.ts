// Check history benchmark (issue 14): a Work with 10,000 check results against one with 10, through the
// real server — GET /api/works/:id/checks/stats answered, and the /works/:id/checks page painted in real
// Chromium (every check's row with its strip). Medians of several loads; the results are seeded straight
// into the server's database (running 10,000 checks would take minutes and measure the runner instead).
import path from "node:path";
import { chromium, type Page } from "@playwright/test";
import { CHROMIUM_PATH } from "../../e2e/support/browser";
import { startOwnServer, BOOTSTRAP_TOKEN } from "../../e2e/support/own-server";
import { createDb } from "../../lib/db/client";
import { makeGitRepo } from "../../lib/testing/git-repo";
import type { BenchRow } from "./runner-bench";

const ADMIN = { email: "bench@example.com", password: "bench-password-123" };
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function api(base: string, method: string, url: string, body?: unknown) {
  const res = await fetch(`${base}${url}`, {
    method,
    // A fresh connection each time: the server closes idle keep-alive sockets during the long seeding.
    headers: { authorization: `Bearer ${BOOTSTRAP_TOKEN}`, "content-type": "application/json", connection: "close" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.json();
}

// `runs` runs of one task, each with `attempts` attempts of `checks` results (verdicts and durations varied).
async function seedResults(dataDir: string, workId: string, shape: { runs: number; attempts: number; checks: number }) {
  const db = createDb({ url: `file:${path.join(dataDir, "gatehouse.db")}` });
  const task = await db.task.create({
    data: { workId, number: 1, key: `H-${shape.runs}`, title: "history", branch: `history-${shape.runs}` },
  });
  const verdicts = ["passed", "passed", "passed", "failed", "passed", "timeout", "passed", "passed"] as const;
  for (let r = 1; r <= shape.runs; r++) {
    const at = new Date(Date.now() - (shape.runs - r) * 60_000);
    const run = await db.run.create({
      data: {
        taskId: task.id,
        workId,
        number: r,
        status: "finished",
        gate: "green",
        ending: "accepted",
        policy: "required",
        maxAttempts: shape.attempts,
        checks: [],
        branch: task.branch,
        createdAt: at,
        finishedAt: at,
      },
    });
    const attempts = await db.attempt.createManyAndReturn({
      data: Array.from({ length: shape.attempts }, (_, i) => ({
        runId: run.id,
        n: i + 1,
        trigger: "manual",
        status: "finished" as const,
        commit: "0".repeat(40),
      })),
      select: { id: true, n: true },
    });
    await db.checkResult.createMany({
      data: attempts.flatMap((a) =>
        Array.from({ length: shape.checks }, (_, c) => ({
          attemptId: a.id,
          runId: run.id,
          position: c,
          checkId: `check-${c + 1}`,
          name: `Check ${c + 1}`,
          kind: "test" as const,
          required: true,
          verdict: verdicts[(r + a.n + c) % verdicts.length],
          durationMs: 100 + ((r * 37 + c * 11 + a.n) % 900),
          logAttempt: a.n,
          flaky: (r + c) % 17 === 0,
          finishedAt: at,
        })),
      ),
    });
  }
  await db.$disconnect();
}

async function timeToReady(page: Page, url: string, ready: string, rounds: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < rounds + 1; i++) {
    await page.goto("about:blank");
    await page.goto(url, { waitUntil: "commit" });
    const at = await page.waitForFunction(`(${ready}) ? performance.now() : false`, null, {
      polling: "raf",
      timeout: 30_000,
    });
    if (i > 0) times.push(Number(await at.jsonValue()));
  }
  return median(times);
}

async function timeApi(base: string, url: string, rounds: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < rounds + 1; i++) {
    const start = performance.now();
    await api(base, "GET", url);
    if (i > 0) times.push(performance.now() - start);
  }
  return median(times);
}

export async function benchCheckHistory(rounds: number): Promise<BenchRow[]> {
  const repo = makeGitRepo({ "README.md": "bench\n" });
  const server = await startOwnServer({
    port: 3298,
    env: { GATEHOUSE_ADMIN_EMAIL: ADMIN.email, GATEHOUSE_ADMIN_PASSWORD: ADMIN.password, GATEHOUSE_DEMO: "0" },
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
  });
  try {
    const base = server.url;
    const big = await api(base, "POST", "/api/works", { name: "History 10000", repoUrl: repo.dir });
    const small = await api(base, "POST", "/api/works", { name: "History 10", repoUrl: repo.dir });
    // 250 runs × 2 attempts × 20 checks = 10,000 results; 1 run × 1 attempt × 10 checks = 10.
    await seedResults(server.dataDir, big.id, { runs: 250, attempts: 2, checks: 20 });
    await seedResults(server.dataDir, small.id, { runs: 1, attempts: 1, checks: 10 });

    const apiBig = await timeApi(base, `/api/works/${big.id}/checks/stats`, rounds * 2);
    const apiSmall = await timeApi(base, `/api/works/${small.id}/checks/stats`, rounds * 2);

    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(`${base}/signin`);
    await page.getByLabel("Email").fill(ADMIN.email);
    await page.getByLabel("Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByLabel(/^Account: /).waitFor();
    const painted = (rows: number, cells: number) =>
      `document.querySelectorAll('tr[data-check-id]').length === ${rows} && ` +
      `document.querySelectorAll('tr[data-check-id] li a').length === ${cells}`;
    const pageBig = await timeToReady(page, `${base}/works/${big.id}/checks`, painted(20, 600), rounds);
    const pageSmall = await timeToReady(page, `${base}/works/${small.id}/checks`, painted(10, 10), rounds);
    return [
      {
        name: "GET /api/works/:id/checks/stats, a Work with 10,000 results (vs 10 results)",
        subjectMs: apiBig,
        baselineMs: apiSmall,
        ratio: apiBig / apiSmall,
      },
      {
        name: "check history page, 10,000 results, until every row and strip shows (vs 10 results)",
        subjectMs: pageBig,
        baselineMs: pageSmall,
        ratio: pageBig / pageSmall,
      },
    ];
  } catch (error) {
    console.error(server.output().slice(-4000));
    throw error;
  } finally {
    await browser.close();
    server.stop();
    repo.cleanup();
  }
}
