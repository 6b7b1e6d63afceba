// The specs' `test`: Playwright's, with one signed-in admin tab per worker that every test taking `page`
// with the admin's storage state reuses. A new tab's first navigation costs Chromium about a second of CPU
// whatever the page (measured on the 2-core machine: 1.0 s to a JSON page, 0.3 s for the same navigation
// in a tab already open), and most tests open one: reused, the suite spends that once per worker. Between
// tests the tab goes back to about:blank (ending the page's scripts and polling) with the listeners and
// routes a test added removed, the viewport and colour scheme a test asked for are set on it, and a test
// that changed the cookies or broke the tab leaves it to be replaced. A test with another storage state
// (signed out, another person), or any test while E2E_TRACE records traces, gets a fresh context, as
// Playwright's own fixture gives.
import {
  test as base,
  type Browser,
  type BrowserContext,
  type Page,
  type PlaywrightTestOptions,
  type TestInfo,
} from "@playwright/test";
import { adminState } from "./lanes";

export { expect } from "@playwright/test";

type Look = Pick<PlaywrightTestOptions, "viewport" | "colorScheme" | "reducedMotion">;
const DEFAULT_VIEWPORT = { width: 1280, height: 720 };
// Playwright's Page is an event emitter with Node's methods; its typings name only on/once/off.
type Listener = (...args: unknown[]) => void;
type Emitter = {
  eventNames(): (string | symbol)[];
  listeners(name: string | symbol): Listener[];
  off(name: string | symbol, listener: Listener): void;
};
const emitter = (page: Page) => page as unknown as Emitter;

class AdminTab {
  private open?: { context: BrowserContext; page: Page; cookies: string; listeners: Map<string | symbol, Listener[]> };

  constructor(
    private readonly browser: Browser,
    private readonly baseURL: string | undefined,
  ) {}

  async take(look: Look): Promise<Page> {
    if (!this.open || this.open.page.isClosed()) {
      const context = await this.browser.newContext({ baseURL: this.baseURL, storageState: adminState() });
      const page = await context.newPage();
      this.open = { context, page, cookies: JSON.stringify(await context.cookies()), listeners: new Map() };
    }
    const { page } = this.open;
    const viewport = look.viewport ?? DEFAULT_VIEWPORT;
    const now = page.viewportSize();
    if (now?.width !== viewport.width || now?.height !== viewport.height) await page.setViewportSize(viewport);
    await page.emulateMedia({
      colorScheme: look.colorScheme ?? "light",
      // The config's (reduce); a test that sets none gets none, not the last test's.
      reducedMotion: look.reducedMotion ?? null,
    });
    const events = emitter(page);
    this.open.listeners = new Map(events.eventNames().map((name) => [name, events.listeners(name)]));
    return page;
  }

  // Back to a blank tab, as the next test expects to find it; anything odd and the tab is replaced.
  async give(testInfo: TestInfo): Promise<void> {
    const open = this.open;
    if (!open) return;
    try {
      if (testInfo.status !== testInfo.expectedStatus && !open.page.isClosed()) {
        await testInfo.attach("screenshot", {
          body: await open.page.screenshot({ timeout: 5_000 }),
          contentType: "image/png",
        });
      }
      const events = emitter(open.page);
      for (const name of events.eventNames()) {
        const before = open.listeners.get(name) ?? [];
        for (const listener of events.listeners(name)) if (!before.includes(listener)) events.off(name, listener);
      }
      await open.page.unrouteAll({ behavior: "ignoreErrors" });
      // A page with unsaved edits asks before it is left (beforeunload): leave.
      const leave = (dialog: { accept: () => Promise<void> }) => dialog.accept().catch(() => {});
      open.page.on("dialog", leave);
      // Left from the page itself: a blank page the browser opens (page.goto) comes in a process of its own,
      // and the next test's first navigation would start a new one again (0.63 s of CPU instead of 0.33).
      await open.page.evaluate(() => {
        location.href = "about:blank";
      });
      await open.page.waitForURL("about:blank", { timeout: 10_000 });
      open.page.off("dialog", leave);
      if (JSON.stringify(await open.context.cookies()) !== open.cookies) await this.close();
    } catch {
      await this.close();
    }
  }

  async close(): Promise<void> {
    const open = this.open;
    this.open = undefined;
    await open?.context.close().catch(() => {});
  }
}

export const test = base.extend<object, { adminTab: AdminTab }>({
  adminTab: [
    async ({ browser }, use, workerInfo) => {
      const tab = new AdminTab(browser, workerInfo.project.use.baseURL);
      await use(tab);
      await tab.close();
    },
    { scope: "worker" },
  ],
  page: async ({ adminTab, browser, baseURL, storageState, viewport, colorScheme, reducedMotion }, use, testInfo) => {
    if (storageState !== adminState() || process.env.E2E_TRACE) {
      const context = await browser.newContext({ baseURL, storageState, viewport, colorScheme, reducedMotion });
      await use(await context.newPage());
      await context.close();
      return;
    }
    await use(await adminTab.take({ viewport, colorScheme, reducedMotion }));
    await adminTab.give(testInfo);
  },
});
