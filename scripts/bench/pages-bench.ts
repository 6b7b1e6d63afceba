// Page benchmarks (issue 4), in real Chromium against the real server: time until a full log of
// 1,000,000 lines shows its last line, against a 10-line log; and time until a task page with 1,000
// runs in its history has painted them, against a task with one run. Medians of several loads, each
// subject and its baseline loaded in turn.
import { execFileSync } from "node:child_process";
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
    headers: { authorization: `Bearer ${BOOTSTRAP_TOKEN}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.json();
}

async function waitFinished(base: string, runId: string) {
  for (;;) {
    const run = await api(base, "GET", `/api/runs/${runId}`);
    if (run.status === "finished" || run.status === "waiting") return run;
    await new Promise((r) => setTimeout(r, 250));
  }
}

// Milliseconds from navigation start until `ready` holds in the page.
async function loadUntil(page: Page, url: string, ready: string): Promise<number> {
  await page.goto("about:blank");
  await page.goto(url, { waitUntil: "commit" });
  const at = await page.waitForFunction(`(${ready}) ? performance.now() : false`, null, {
    polling: "raf",
    timeout: 30_000,
  });
  return Number(await at.jsonValue());
}

// Medians of `rounds` loads of each page (after one load each), the pages taken in turn round by round
// so a subject and its baseline are timed under the same load.
async function timeToReady(page: Page, pages: { url: string; ready: string }[], rounds: number): Promise<number[]> {
  const times: number[][] = pages.map(() => []);
  for (let i = 0; i < rounds + 1; i++)
    for (const [k, p] of pages.entries()) {
      const ms = await loadUntil(page, p.url, p.ready);
      if (i > 0) times[k].push(ms);
    }
  return times.map(median);
}

export async function benchPages(rounds: number): Promise<BenchRow[]> {
  const repo = makeGitRepo({ "README.md": "bench\n" });
  // The checks clone as the sandbox user: the repository must be readable by others (mkdtemp makes 0700).
  execFileSync("chmod", ["-R", "a+rX", repo.dir]);
  const server = await startOwnServer({
    port: Number(process.env.BENCH_PAGES_PORT ?? 3297),
    env: { GATEHOUSE_ADMIN_EMAIL: ADMIN.email, GATEHOUSE_ADMIN_PASSWORD: ADMIN.password, GATEHOUSE_LOG_CAP_MB: "64" },
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      "--no-sandbox",
      "--headless",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
  try {
    const base = server.url;
    const lines = (n: number) =>
      `awk 'BEGIN { for (i = 1; i <= ${n}; i++) printf "line %d: \\033[32mok\\033[0m step %d of the build\\n", i, i }'`;
    const work = await api(base, "POST", "/api/works", { name: "Bench", repoUrl: repo.dir, baseBranch: "main" });
    const make = async (title: string, command: string) => {
      const task = await api(base, "POST", `/api/works/${work.id}/tasks`, {
        title,
        acceptanceChecks: [{ id: "print", name: title, kind: "test", command, required: true }],
      });
      const { runId } = await api(base, "POST", `/api/tasks/${task.id}/dispatch`);
      await waitFinished(base, runId);
      return { taskId: task.id as string, runId: runId as string };
    };
    const big = await make("a million lines", lines(1_000_000));
    const small = await make("ten lines", lines(10));
    await seedHistory(server.dataDir, small.taskId, 999);

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${base}/signin`);
    await page.getByLabel("Email").fill(ADMIN.email);
    await page.getByLabel("Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByLabel(/^Account: /).waitFor();

    // The line is in the page and in view inside the log's box.
    const lastLine = (n: number) =>
      `(() => { const el = document.querySelector('[data-line="${n}"]'); if (!el || ` +
      `!el.textContent.includes('line ${n}:')) return false; const box = ` +
      `el.closest('[aria-label="Log lines"]').getBoundingClientRect(); const r = ` +
      `el.getBoundingClientRect(); return r.height > 0 && r.top >= box.top - 1 && ` +
      `r.bottom <= box.bottom + 1; })()`;
    const log = (runId: string) => `${base}/runs/${runId}/attempts/1/checks/print/log`;
    const [logBig, logSmall] = await timeToReady(
      page,
      [
        { url: log(big.runId), ready: lastLine(1_000_000) },
        { url: log(small.runId), ready: lastLine(10) },
      ],
      rounds,
    );
    const runsPainted = (n: number) => `document.querySelectorAll('[aria-label="Runs"] li').length === ${n}`;
    const [taskMany, taskOne] = await timeToReady(
      page,
      [
        { url: `${base}/tasks/${small.taskId}`, ready: runsPainted(20) },
        { url: `${base}/tasks/${big.taskId}`, ready: runsPainted(1) },
      ],
      rounds,
    );
    return [
      {
        name: "full-log page, 1,000,000 lines, until the last line shows (vs a 10-line log)",
        subjectMs: logBig,
        baselineMs: logSmall,
        ratio: logBig / logSmall,
      },
      {
        name: "task page with 1,000 runs, until its history shows (vs a task with 1 run)",
        subjectMs: taskMany,
        baselineMs: taskOne,
        ratio: taskMany / taskOne,
      },
    ];
  } finally {
    await browser.close();
    server.stop();
    repo.cleanup();
  }
}

// 1,000 runs of history, written straight into the server's database (dispatching them would take minutes).
async function seedHistory(dataDir: string, taskId: string, count: number) {
  const db = createDb({ url: `file:${path.join(dataDir, "gatehouse.db")}` });
  const task = await db.task.findUniqueOrThrow({ where: { id: taskId }, select: { workId: true, branch: true } });
  const template = await db.run.findFirstOrThrow({ where: { taskId }, select: { checks: true, policy: true } });
  const endings = ["accepted", "partial", "rejected", "inconclusive"] as const;
  for (let start = 0; start < count; start += 200) {
    await db.run.createMany({
      data: Array.from({ length: Math.min(200, count - start) }, (_, i) => {
        const at = new Date(Date.now() - (count - start - i) * 60_000);
        return {
          taskId,
          workId: task.workId,
          number: 1000 + start + i,
          status: "finished",
          gate: i % 3 ? "green" : "red",
          ending: endings[i % 4],
          endingReason: "seeded",
          policy: template.policy,
          maxAttempts: 3,
          checks: template.checks ?? [],
          branch: task.branch,
          createdAt: at,
          startedAt: at,
          finishedAt: new Date(at.getTime() + 30_000),
        };
      }),
    });
  }
  await db.$disconnect();
}
