// Swagger UI in Debian's Chromium, driven by playwright-core through its visible controls, for the
// docs-page tests. Screenshots go to test-results/screenshots/.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOTS = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));
/** How long one step in the page may take (rendering, a request, an scrypt check). */
const STEP_MS = 15_000;
/**
 * How long a whole page test may take. Each step has STEP_MS: this only catches a hang elsewhere,
 * and leaves room for all the steps on a busy machine (with other test files running beside it,
 * the service's docs page has taken over 120 s).
 */
export const PAGE_TEST_MS = 300_000;

/** What the page shows after Execute, and what the browser really sent. */
export interface Outcome {
  readonly status: string;
  /** The "Response body" block (empty when there is none). */
  readonly body: string;
  readonly requestHeaders: Record<string, string>;
}

/** Swagger UI, operated through its visible controls only. */
export class DocsPage {
  constructor(
    readonly page: Page,
    /** Prefix of its screenshots' names. */
    readonly name: string,
  ) {}

  /** The block of one operation, found by its method and path as the page shows them. */
  operation(method: string, path: string): Locator {
    return this.page
      .locator(`.opblock.opblock-${method}`)
      .filter({ has: this.page.locator(`.opblock-summary-path[data-path="${path}"]`) });
  }

  async open(url: string): Promise<void> {
    await this.page.goto(url);
    await this.page.locator('.opblock').first().waitFor();
  }

  /** Expands the operation and switches it to "Try it out". */
  async tryOut(method: string, path: string): Promise<Locator> {
    const op = this.operation(method, path);
    if (!((await op.getAttribute('class')) ?? '').split(' ').includes('is-open')) {
      await op.locator('.opblock-summary-control').click();
    }
    const button = op.locator('.try-out__btn');
    if ((await button.textContent())?.trim() === 'Try it out') await button.click();
    await op.locator('.execute').waitFor();
    return op;
  }

  /** Fills a field of a form-encoded request body. */
  async fill(op: Locator, field: string, value: string): Promise<void> {
    await op.locator(`tr[data-property-name="${field}"] input`).fill(value);
  }

  /** Clicks Execute (after Clear, so no earlier response is mistaken for this one). */
  async execute(op: Locator, path: string): Promise<Outcome> {
    const clear = op.locator('.btn-clear');
    if (await clear.isVisible()) await clear.click();
    await op.locator('.live-responses-table').waitFor({ state: 'detached' });
    const sent = this.page.waitForRequest((request) => new URL(request.url()).pathname === path);
    await op.locator('.execute').click();
    const request = await sent;
    const status = op.locator('.live-responses-table .response .response-col_status');
    await status.waitFor();
    const body = op.locator('.live-responses-table .response-col_description .highlight-code pre');
    return {
      status: ((await status.textContent()) ?? '').trim(),
      body: (await body.count()) === 0 ? '' : ((await body.first().textContent()) ?? '').trim(),
      requestHeaders: await request.allHeaders(),
    };
  }

  /** Opens Authorize, enters credentials in one scheme's form, applies them and closes. */
  async authorize(
    scheme: string,
    fields: Record<string, string>,
    /** Controls to click before Authorize, e.g. the labels of an OAuth2 flow's scopes. */
    clicks: readonly string[] = [],
  ): Promise<void> {
    const { modal, form } = await this.authForm(scheme);
    for (const [selector, value] of Object.entries(fields)) {
      await form.locator(selector).fill(value);
    }
    for (const selector of clicks) await form.locator(selector).click();
    await form.locator('button.authorize').click();
    // Once applied, the form says "Authorized" and offers Logout instead (its aria-label is
    // "Remove authorization").
    await form.getByRole('button', { name: 'Remove authorization' }).waitFor();
    assert.match((await form.textContent()) ?? '', /Authorized/);
    await this.shot(`authorize-${scheme}`);
    await form.locator('.btn-done').click();
    await modal.waitFor({ state: 'detached' });
  }

  /** Opens Authorize, removes one scheme's authorization and closes. */
  async logout(scheme: string): Promise<void> {
    const { modal, form } = await this.authForm(scheme);
    await form.getByRole('button', { name: 'Remove authorization' }).click();
    await form.locator('button.authorize').waitFor();
    await form.locator('.btn-done').click();
    await modal.waitFor({ state: 'detached' });
  }

  /** Opens Authorize on one scheme's form, named first in its heading. */
  private async authForm(scheme: string): Promise<{ modal: Locator; form: Locator }> {
    // The Authorize button at the top of the page (the modal's own buttons are .modal-btn).
    await this.page.locator('.auth-wrapper .btn.authorize:not(.modal-btn)').click();
    const modal = this.page.locator('.modal-ux');
    await modal.waitFor();
    const heading = this.page.locator('h4', { hasText: new RegExp(`^\\s*${scheme}\\s`) });
    const form = modal.locator('.auth-container').filter({ has: heading });
    assert.equal(await form.count(), 1, `Authorize offers the ${scheme} scheme`);
    return { modal, form };
  }

  async shot(name: string, element?: Locator): Promise<void> {
    const path = join(SCREENSHOTS, `${this.name}-${name}.png`);
    if (element === undefined) await this.page.screenshot({ path });
    else await element.screenshot({ path });
  }
}

/** A page open in Chromium on the service at `origin`, and what it did. */
export interface Session {
  readonly context: BrowserContext;
  readonly page: Page;
  readonly docs: DocsPage;
  /** Script errors and console errors other than the API's refusals. */
  readonly pageErrors: string[];
  /** The API's 4xx answers, as the browser's console reports them. */
  readonly refusals: string[];
  /** Requests sent anywhere but the service. */
  readonly offOrigin: string[];
  /**
   * Runs one step as a subtest; on failure keeps a screenshot of the page as it was, and skips
   * the steps after it (each builds on the page state the previous ones left).
   */
  readonly step: (name: string, body: () => Promise<void>) => Promise<void>;
}

/**
 * Opens Chromium on a new page for the service at `origin`, closed when the test ends;
 * `undefined`, the test skipped, when Chromium is not installed.
 */
export async function openChromium(
  t: TestContext,
  origin: string,
  name: string,
): Promise<Session | undefined> {
  if (!existsSync(CHROMIUM)) {
    t.skip('chromium not installed: apt-get install chromium');
    return undefined;
  }
  mkdirSync(SCREENSHOTS, { recursive: true });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  t.after(() => browser.close());
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(STEP_MS);
  page.setDefaultNavigationTimeout(STEP_MS);
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  // The browser reports each 4xx answer to Try it out on the console; the API's refusals are
  // counted apart from the page's own errors, and must be the ones the steps asked for.
  const refusals: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    if (/^Failed to load resource: the server responded with a status of 4\d\d/.test(text)) {
      refusals.push(`${text} (${message.location().url})`);
    } else pageErrors.push(`console: ${text}`);
  });
  // Every request the page sends, to check what the browser really put on the wire.
  const offOrigin: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(`${origin}/`)) offOrigin.push(request.url());
  });
  const docs = new DocsPage(page, name);

  let failed: string | undefined;
  async function step(title: string, body: () => Promise<void>): Promise<void> {
    const skip = failed === undefined ? false : `after the failed step "${failed}"`;
    await t.test(title, { skip }, async () => {
      try {
        await body();
      } catch (error) {
        failed = title;
        await docs.shot(`FAILED-${title.replace(/[^a-z0-9]+/gi, '-')}`).catch(() => undefined);
        throw error;
      }
    });
  }

  return { context, page, docs, pageErrors, refusals, offOrigin, step };
}
