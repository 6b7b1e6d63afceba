import path from "node:path";
import type { Page } from "@playwright/test";
import { shotForPeople } from "./support/shots";
import { expect, test } from "./support/test";
import { api, workWithChecks } from "./support/api";
import { expectNoAxeViolations } from "./support/axe";
import { adminState } from "./support/lanes";

// The Work settings page in sections (issue 24 item 6), at a phone's width and a laptop's: each section has
// its own URL and a place in the side navigation, saves on its own with the version it was read at, keeps
// the other sections' unsaved edits (and says so), and reports a stale save as a conflict. Every section
// passes axe in light and dark (dark: `npm run test:full`); with E2E_SHOTS set, screenshots go to
// /tmp/settings-shots for a person to look at.

const SHOTS = "/tmp/settings-shots";
const unit = { id: "unit", name: "Unit tests pass", kind: "test", command: "npm test", required: true };
const SECTIONS = [
  ["general", "General", "General"],
  ["checks", "Checks", /^Check defaults/],
  ["policy", "Policy and attempts", "Policy and attempts"],
  ["agent", "Agent", "Agent"],
  ["proof", "Proof", "Proof"],
  ["verification", "Verification", "Verification profile"],
  ["sources", "Check sources", /^Check sources/],
  ["merge", "Merge", "Merge"],
  ["sandbox", "Sandbox", "Sandbox"],
  ["webhooks", "Webhooks", /^Webhooks/],
  ["secrets", "Secrets", "Secrets"],
  ["access", "Access", "People"],
] as const;

const nav = (page: Page) => page.getByRole("navigation", { name: "Settings sections" });
const saved = (page: Page) => page.getByRole("status").filter({ hasText: /Saved: version/ });

// Typed before the editor hydrates, text can be lost: type until the field holds it.
async function fillUntilHeld(page: Page, label: string, value: string) {
  await expect(async () => {
    await page.getByLabel(label, { exact: true }).fill(value);
    await expect(page.getByLabel(label, { exact: true })).toHaveValue(value, { timeout: 1000 });
  }).toPass();
}

for (const [width, height, device] of [
  [1280, 900, "laptop"],
  [390, 844, "phone"],
] as const) {
  test.describe(`at ${width} px (${device})`, () => {
    test.use({ viewport: { width, height } });

    test("each section opens at its own URL, marked in the navigation", async ({ page }) => {
      const { workId } = await workWithChecks(`Sections ${device}`, [unit]);
      await page.goto(`/works/${workId}/settings`);
      await expect(page.getByRole("region", { name: /^Check defaults/ })).toBeVisible();
      await expect(nav(page).getByRole("link", { name: "Checks", exact: true })).toHaveAttribute(
        "aria-current",
        "page",
      );
      for (const [slug, label, region] of SECTIONS) {
        await page.goto(`/works/${workId}/settings/${slug}`);
        await expect(page.getByRole("region", { name: region })).toBeVisible();
        await expect(nav(page).getByRole("link", { name: label, exact: true })).toHaveAttribute("aria-current", "page");
        // The page never scrolls sideways.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      }
      // The navigation moves between sections in the page; the others are links to their pages.
      await nav(page).getByRole("link", { name: "Proof", exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`/works/${workId}/settings/proof$`));
      // Secrets and Access are sections of the same layout: the navigation stays, the section is marked.
      for (const [slug, label, region] of [
        ["secrets", "Secrets", "Secrets"],
        ["access", "Access", "People"],
      ] as const) {
        await nav(page).getByRole("link", { name: label, exact: true }).click();
        await expect(page).toHaveURL(new RegExp(`/works/${workId}/settings/${slug}$`));
        await expect(page.getByRole("region", { name: region })).toBeVisible();
        await expect(nav(page).getByRole("link", { name: label, exact: true })).toHaveAttribute("aria-current", "page");
        await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      }
      // The Work's old Access address opens the section.
      await page.goto(`/works/${workId}/access`);
      await expect(page).toHaveURL(new RegExp(`/works/${workId}/settings/access$`));
      await expect(nav(page).getByRole("link", { name: "Access", exact: true })).toHaveAttribute(
        "aria-current",
        "page",
      );
      await page.goto(`/works/${workId}/settings/nonsense`);
      await expect(page.getByRole("heading", { name: "No such section" })).toBeVisible();
    });

    test("saving one section keeps another's unsaved edits, and says they are not saved yet", async ({ page }) => {
      const { workId } = await workWithChecks(`Keep edits ${device}`, [unit]);
      await page.goto(`/works/${workId}/settings/proof`);
      await fillUntilHeld(page, "Protected files", "scripts/**\nMakefile");
      await expect(nav(page).getByRole("link", { name: /^Proof/ })).toContainText("unsaved");

      await nav(page).getByRole("link", { name: "Sandbox", exact: true }).click();
      const sandbox = page.getByRole("region", { name: "Sandbox" });
      await sandbox
        .getByRole("group", { name: "Agent step network" })
        .getByLabel(/network off/)
        .check();
      await sandbox.getByRole("button", { name: "+ Add a mount" }).click();
      const mount = sandbox.getByRole("listitem", { name: /^Mount 1/ });
      await mount.getByLabel("Path").fill("opt/toolchain");
      await expect(mount.getByText("Path: must be an absolute path (starting with /)")).toBeVisible();
      await expect(page.getByRole("button", { name: "Save changes" })).toBeDisabled();
      await mount.getByLabel("Path").fill("/opt/toolchain");
      await mount.getByLabel("Access").selectOption("rw");
      await sandbox.getByLabel("Visible refs").fill("refs/tags/v*\nrelease/*");
      await expect(page.getByText("Not saved yet in Proof: each section saves on its own.")).toBeVisible();
      await page.getByRole("button", { name: "Save changes" }).click();
      await expect(saved(page)).toBeVisible();

      let work = (await api("GET", `/api/works/${workId}`)).json;
      expect(work).toMatchObject({
        agentNetwork: "off",
        checkNetwork: "on",
        sandboxMounts: [{ path: "/opt/toolchain", mode: "rw" }],
        visibleRefs: ["refs/tags/v*", "release/*"],
        version: 2,
      });
      // Only the sandbox was saved: the proof edit is still waiting, in its section, on top of version 2.
      expect(work.protectedPaths).not.toContain("Makefile");
      await expect(page.getByText("Not saved yet in Proof: each section saves on its own.")).toBeVisible();
      await nav(page)
        .getByRole("link", { name: /^Proof/ })
        .click();
      await expect(page.getByLabel("Protected files", { exact: true })).toHaveValue("scripts/**\nMakefile");
      await page.getByRole("button", { name: "Save changes" }).click();
      await expect(saved(page)).toContainText("version 3");
      work = (await api("GET", `/api/works/${workId}`)).json;
      expect(work).toMatchObject({ protectedPaths: ["scripts/**", "Makefile"], agentNetwork: "off", version: 3 });
      await expect(nav(page).getByRole("link", { name: /^Proof/ })).not.toContainText("unsaved");
    });

    test("a save over someone else's is refused with a conflict, and nothing of it is written", async ({
      page,
      browser,
    }) => {
      const { workId } = await workWithChecks(`Conflict ${device}`, [unit]);
      await page.goto(`/works/${workId}/settings/sandbox`);
      const other = await browser.newContext({ storageState: adminState() });
      const otherPage = await other.newPage();
      await otherPage.goto(`/works/${workId}/settings/policy`);
      await otherPage.getByRole("combobox", { name: "Attempts per run" }).selectOption("5");
      await otherPage.getByRole("button", { name: "Save changes" }).click();
      await expect(saved(otherPage)).toBeVisible();
      await other.close();

      await expect(async () => {
        await page.getByLabel("Visible refs").fill("release/*");
        await expect(page.getByRole("button", { name: "Save changes" })).toBeEnabled({ timeout: 1000 });
      }).toPass();
      await page.getByRole("button", { name: "Save changes" }).click();
      const conflict = page.getByRole("alert").filter({ hasText: "Not saved: someone else saved this Work first" });
      await expect(conflict).toBeVisible();
      await expect(conflict.getByText("maxGateAttempts")).toBeVisible();
      expect((await api("GET", `/api/works/${workId}`)).json.visibleRefs).toEqual([]);
      if (device === "laptop") {
        await shotForPeople(page, path.join(SHOTS, `conflict-${width}.png`), { fullPage: true });
      }
      await conflict.getByRole("button", { name: "Keep my edits on top of theirs" }).click();
      await page.getByRole("button", { name: "Save changes" }).click();
      await expect(saved(page)).toBeVisible();
      expect((await api("GET", `/api/works/${workId}`)).json).toMatchObject({
        visibleRefs: ["release/*"],
        maxGateAttempts: 5,
      });
    });

    // `npm test` runs the light pass on the phone, where the layout is tightest; the laptop's and the dark
    // ones repeat every section (tag @full, `npm run test:full`), as the dark pass of every page does.
    for (const scheme of ["light", "dark"] as const) {
      const full = scheme === "dark" || device === "laptop" ? { tag: "@full" } : {};
      test.describe(`${scheme} theme`, () => {
        test.use({ colorScheme: scheme });
        test(
          `every section passes axe in the ${scheme} theme (screenshots in ${SHOTS} with E2E_SHOTS)`,
          full,
          async ({ page }) => {
            // Twelve pages, each checked by axe (and photographed whole with E2E_SHOTS).
            test.setTimeout(120_000);
            const { workId } = await workWithChecks(`Axe ${device} ${scheme}`, [unit], {
              sandboxMounts: [{ path: "/opt/toolchain", mode: "ro" }],
              visibleRefs: ["refs/tags/v*"],
              webhooks: [
                { url: "https://ci.example.test/gatehouse", events: ["run.ended"], secret: "axe-webhook-secret" },
              ],
            });
            for (const [slug, , region] of SECTIONS) {
              await page.goto(`/works/${workId}/settings/${slug}`);
              await expect(page.getByRole("region", { name: region })).toBeVisible();
              await expectNoAxeViolations(page, `settings: ${slug} (${scheme}, ${width} px)`);
              await shotForPeople(page, path.join(SHOTS, `${slug}-${width}-${scheme}.png`), { fullPage: true });
            }
            // With an edit waiting in one section and a problem in another, as the navigation flags them.
            await page.goto(`/works/${workId}/settings/sandbox`);
            // Typed in at the viewport's bottom edge, the field's error shows whole, above the sticky save bar.
            const refs = page.getByLabel("Visible refs");
            await refs.evaluate((field) => field.scrollIntoView({ block: "end" }));
            const refsError = page.getByText(/Visible refs: line 1 \(a b\): not a ref glob/);
            await expect(async () => {
              await refs.fill("a b");
              await expect(refsError).toBeVisible({ timeout: 1000 });
            }).toPass();
            await expect(async () => {
              const line = (await refsError.boundingBox())!;
              const bar = (await page.getByRole("button", { name: "Save changes" }).locator("..").boundingBox())!;
              expect(line.y + line.height).toBeLessThanOrEqual(bar.y);
            }).toPass();
            await expect(nav(page).getByRole("link", { name: /^Sandbox/ })).toContainText("problems");
            await expectNoAxeViolations(page, `settings: sandbox with a problem (${scheme}, ${width} px)`);
            // As the person typing sees it (the viewport, scrolled to the field): whole, the page would picture
            // the sticky header and save bar where this scroll position puts them, mid-page.
            await shotForPeople(page, path.join(SHOTS, `sandbox-problem-${width}-${scheme}.png`));
          },
        );
      });
    }
  });
}

test("leaving the settings with unsaved edits asks first; moving between its sections does not", async ({ page }) => {
  const { workId } = await workWithChecks("Leave guard", [unit]);
  await page.goto(`/works/${workId}/settings/proof`);
  await fillUntilHeld(page, "Protected files", "scripts/**");
  const asked: string[] = [];
  // Dismissed first: the page stays, the edit with it.
  page.once("dialog", (dialog) => {
    asked.push(dialog.message());
    void dialog.dismiss();
  });
  await page.getByRole("link", { name: "Inbox", exact: true }).click();
  await expect.poll(() => asked).toEqual(["Leave this page? Your changes here are not saved."]);
  await expect(page).toHaveURL(new RegExp(`/works/${workId}/settings/proof$`));
  await expect(page.getByLabel("Protected files", { exact: true })).toHaveValue("scripts/**");
  // Another section of the same settings keeps the edit: no question.
  await nav(page).getByRole("link", { name: "Sandbox", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/works/${workId}/settings/sandbox$`));
  expect(asked).toHaveLength(1);
  // Accepted: the app leaves.
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("link", { name: "Inbox", exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("the browser's Back out of the settings with unsaved edits asks too; kept, the page and the edit stay; \
Back between its sections asks nothing", async ({ page }) => {
  const { workId } = await workWithChecks("Back guard", [unit]);
  const settings = new RegExp(`/works/${workId}/settings(/checks)?$`);
  // Into the settings the way people go, inside the app (so Back is the app's to handle, not a new page load).
  await page.goto(`/works/${workId}`);
  await page.getByRole("link", { name: "Edit checks and policy" }).click();
  await expect(page).toHaveURL(settings);
  await nav(page).getByRole("link", { name: "Proof", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/works/${workId}/settings/proof$`));
  await fillUntilHeld(page, "Protected files", "scripts/**");
  const asked: string[] = [];
  const answers: ("dismiss" | "accept")[] = ["dismiss", "accept"];
  page.on("dialog", (dialog) => {
    asked.push(dialog.message());
    void (answers.shift() === "accept" ? dialog.accept() : dialog.dismiss());
  });
  // Back to the section before: the edits are kept there, nothing asked.
  await page.goBack();
  await expect(page).toHaveURL(settings);
  await expect(nav(page).getByRole("link", { name: /^Proof/ })).toContainText("unsaved");
  expect(asked).toEqual([]);
  // Back out of the settings: asked; kept, the address and the edit stay.
  await page.goBack();
  await expect.poll(() => asked).toEqual(["Leave this page? Your changes here are not saved."]);
  await expect(page).toHaveURL(settings);
  await nav(page)
    .getByRole("link", { name: /^Proof/ })
    .click();
  await expect(page.getByLabel("Protected files", { exact: true })).toHaveValue("scripts/**");
  // Asked again and left: Back goes on where it was going, the Work's page.
  await page.goBack();
  await page.goBack();
  await expect.poll(() => asked).toHaveLength(2);
  await expect(page).toHaveURL(new RegExp(`/works/${workId}$`));
});

test("without the Navigation API (browsers that lack it), Forward and Back out of unsaved edits, kept, leave \
the page's address and its edits as they were", async ({ page }) => {
  await page.addInitScript(() => {
    Object.defineProperty(window, "navigation", { value: undefined, configurable: true });
  });
  const { workId } = await workWithChecks("Back guard, no Navigation API", [unit]);
  const proof = new RegExp(`/works/${workId}/settings/proof$`);
  await page.goto(`/works/${workId}`);
  expect(await page.evaluate(() => (window as { navigation?: unknown }).navigation)).toBeUndefined();
  await page.getByRole("link", { name: "Edit checks and policy" }).click();
  await nav(page).getByRole("link", { name: "Proof", exact: true }).click();
  await expect(page).toHaveURL(proof);
  // A page ahead in the history, left while nothing was edited; back on the proof section, edited.
  await page.getByRole("link", { name: "Inbox", exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goBack();
  await expect(page).toHaveURL(proof);
  await fillUntilHeld(page, "Protected files", "scripts/**");
  const asked: string[] = [];
  page.on("dialog", (dialog) => {
    asked.push(dialog.message());
    void dialog.dismiss();
  });
  const isKept = async () => {
    await expect(page).toHaveURL(proof);
    await expect(page.getByLabel("Protected files", { exact: true })).toHaveValue("scripts/**");
  };
  // Forward to the Inbox: asked; kept.
  await page.goForward();
  await expect.poll(() => asked).toHaveLength(1);
  await isKept();
  // Back, as far as out of the settings: asked again; kept.
  await expect(async () => {
    await page.goBack();
    expect(asked).toHaveLength(2);
  }).toPass();
  await isKept();
});
