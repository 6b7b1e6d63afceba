// axe-core in the page (injected from node_modules; @axe-core/playwright wants Node 22): WCAG 2.1 A and AA
// plus axe's best practices, reported one line per failing element so a failure says what to fix.
import fs from "node:fs";
import { expect, type Page } from "@playwright/test";

const AXE_SOURCE = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];

type AxeViolation = {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string; summary: string }[];
};

async function axeViolations(page: Page): Promise<AxeViolation[]> {
  // Colours are measured as painted: let transitions (hover, theme, chevrons) finish first.
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
  // A page with its own title (generateMetadata) gets it streamed after the body, again after a refresh: a
  // run in between would report a missing <title> (seen once after a decision). Still none after a few
  // seconds, and axe reports it.
  await page.waitForFunction(() => document.title !== "", null, { timeout: 5_000 }).catch(() => undefined);
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ content: AXE_SOURCE });
  return page.evaluate(async (tags) => {
    type Result = {
      violations: {
        id: string;
        impact: string | null;
        help: string;
        nodes: { target: unknown[]; failureSummary?: string }[];
      }[];
    };
    const axe = (window as unknown as { axe: { run: (c: Document, o: unknown) => Promise<Result> } }).axe;
    const result = await axe.run(document, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({
        target: n.target.map(String).join(" > "),
        summary: (n.failureSummary ?? "").replace(/\s+/g, " ").trim(),
      })),
    }));
  }, AXE_TAGS);
}

function describeViolations(violations: AxeViolation[]): string {
  return violations
    .flatMap((v) => v.nodes.map((n) => `${v.id} [${v.impact}] ${n.target}: ${v.help}. ${n.summary}`))
    .join("\n");
}

// Fails (softly, so one run lists every page) with one line per failing element.
export async function expectNoAxeViolations(page: Page, where: string): Promise<void> {
  const found = describeViolations(await axeViolations(page));
  expect.soft(found, `axe-core on ${where}`).toBe("");
}
