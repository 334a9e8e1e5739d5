// The docs page in a real browser: Debian's Chromium, driven by playwright-core, uses Swagger UI
// on the running service the way a person would (Try it out, Authorize, Execute) and checks that
// every kind of credential the page offers works, that authorization survives a reload, and that
// the page adds the CSRF header to logout by itself. Screenshots go to test-results/screenshots/.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { buildApp } from '../../service/app.js';
import { loadConfig } from '../../service/config/config.js';
import { hashPassword } from '../../service/security/passwords.js';
import { digest, newApiKey, newSecret } from '../../service/security/secrets.js';
import { openStore } from '../../service/store/open-store.js';

const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOTS = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));
const USERNAME = 'alice';
const PASSWORD = 'correct horse battery staple';
const APPLICATION = 'docs-page-app';
/** How long one step in the page may take (rendering, a request, an scrypt check). */
const STEP_MS = 15_000;

/** A port nobody listens on now: the service's public origin must be known before it listens. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address !== null && typeof address === 'object') resolve(address.port);
        else reject(new Error('no port'));
      });
    });
  });
}

/** The real service on a real port over a temporary SQLite file, with one user and one key. */
async function startService(t: TestContext): Promise<{ origin: string; apiKey: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'vouch-docs-page-'));
  t.after(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_ORIGIN: origin,
    DATABASE_URL: `sqlite:${join(dir, 'vouch.db')}`,
    LOG_LEVEL: 'silent',
  });
  const store = await openStore(config.databaseUrl);
  t.after(() => store.close());
  const now = Date.now();
  await store.createUser(USERNAME, await hashPassword(PASSWORD), now);
  const { key, prefix } = newApiKey();
  await store.createApplication(APPLICATION, prefix, digest(key), now);

  const app = await buildApp({ config, store, secretKey: newSecret(32), logger: false });
  t.after(() => app.close());
  await app.listen({ port, host: config.host });
  return { origin, apiKey: key };
}

/** What the page shows after Execute, and what the browser really sent. */
interface Outcome {
  readonly status: string;
  /** The "Response body" block (empty when there is none). */
  readonly body: string;
  readonly requestHeaders: Record<string, string>;
}

/** Swagger UI, operated through its visible controls only. */
class DocsPage {
  constructor(readonly page: Page) {}

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
  async authorize(scheme: string, fields: Record<string, string>): Promise<void> {
    // The Authorize button at the top of the page (the modal's own buttons are .modal-btn).
    await this.page.locator('.auth-wrapper .btn.authorize:not(.modal-btn)').click();
    const modal = this.page.locator('.modal-ux');
    await modal.waitFor();
    const form = modal
      .locator('.auth-container')
      .filter({ has: this.page.locator('h4 code', { hasText: new RegExp(`^${scheme}$`) }) });
    assert.equal(await form.count(), 1, `Authorize offers the ${scheme} scheme`);
    for (const [selector, value] of Object.entries(fields)) {
      await form.locator(selector).fill(value);
    }
    await form.locator('button.authorize').click();
    // Once applied, the form says "Authorized" and offers Logout instead (its aria-label is
    // "Remove authorization").
    await form.getByRole('button', { name: 'Remove authorization' }).waitFor();
    assert.match((await form.textContent()) ?? '', /Authorized/);
    await this.shot(`authorize-${scheme}`);
    await form.locator('.btn-done').click();
    await modal.waitFor({ state: 'detached' });
  }

  async shot(name: string, element?: Locator): Promise<void> {
    const path = join(SCREENSHOTS, `docs-page-${name}.png`);
    if (element === undefined) await this.page.screenshot({ path });
    else await element.screenshot({ path });
  }
}

test(
  'the docs page works in Chromium with every kind of credential',
  {
    timeout: 120_000,
  },
  async (t) => {
    if (!existsSync(CHROMIUM)) {
      t.skip('chromium not installed: apt-get install chromium');
      return;
    }
    mkdirSync(SCREENSHOTS, { recursive: true });
    const { origin, apiKey } = await startService(t);

    const browser: Browser = await chromium.launch({
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
        refusals.push(text);
      } else pageErrors.push(`console: ${text}`);
    });
    // Every request the page sends, to check what the browser really put on the wire.
    const offOrigin: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(`${origin}/`)) offOrigin.push(request.url());
    });
    const docs = new DocsPage(page);

    /**
     * Runs one step; on failure keeps a screenshot of the page as it was, and skips the steps after
     * it (each builds on the page state the previous ones left).
     */
    let failed: string | undefined;
    async function step(name: string, body: () => Promise<void>): Promise<void> {
      const skip = failed === undefined ? false : `after the failed step "${failed}"`;
      await t.test(name, { skip }, async () => {
        try {
          await body();
        } catch (error) {
          failed = name;
          await docs.shot(`FAILED-${name.replace(/[^a-z0-9]+/gi, '-')}`).catch(() => undefined);
          throw error;
        }
      });
    }

    let token = '';

    await step('the page renders the operations from /api/openapi.json, by tag', async () => {
      const described = page.waitForResponse(
        (response) => new URL(response.url()).pathname === '/api/openapi.json',
      );
      await docs.open(`${origin}/api/docs`);
      assert.equal((await described).status(), 200);
      await docs.operation('get', '/api/bearer').waitFor();
      // The bar names the one URL of the description, as the README does.
      const bar = page.locator('.topbar select option:checked');
      assert.equal((await bar.textContent())?.trim(), '/api/openapi.json');
      const headings = await page.locator('h3.opblock-tag').all();
      const tags = await Promise.all(headings.map((heading) => heading.getAttribute('data-tag')));
      assert.deepEqual(tags, ['examples', 'sign-in', 'events', 'service']);
      assert.equal(await page.getByText('Default Response').count(), 0);
      await docs.shot('loaded');
    });

    await step('Authorize lists the schemes by their names, the API-wide one first', async () => {
      await page.locator('.auth-wrapper .btn.authorize:not(.modal-btn)').click();
      const modal = page.locator('.modal-ux');
      await modal.waitFor();
      const names = await modal.locator('.auth-container h4 code').allTextContents();
      assert.deepEqual(names, [
        'bearer',
        'session',
        'basic',
        'apiKeyQuery',
        'apiKeyHeader',
        'apiKeyCookie',
        'keyQuery',
        'keyHeader',
      ]);
      await modal.locator('.modal-ux-header .close-modal').click();
      await modal.waitFor({ state: 'detached' });
    });

    await step('POST /api/token through Try it out gives a token', async () => {
      const op = await docs.tryOut('post', '/api/token');
      // The first content type declared is form-encoded: Swagger UI shows one field per property.
      await docs.fill(op, 'username', USERNAME);
      await docs.fill(op, 'password', PASSWORD);
      const outcome = await docs.execute(op, '/api/token');
      await docs.shot('token', op);
      assert.equal(outcome.status, '200', outcome.body);
      token = (JSON.parse(outcome.body) as { access_token: string }).access_token;
      assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    });

    await step('Authorize with the token, then GET /api/bearer shows 200', async () => {
      await docs.authorize('bearer', { '#auth-bearer-value': token });
      const op = await docs.tryOut('get', '/api/bearer');
      const outcome = await docs.execute(op, '/api/bearer');
      await docs.shot('bearer', op);
      assert.equal(outcome.status, '200', outcome.body);
      assert.equal(outcome.requestHeaders.authorization, `Bearer ${token}`);
      assert.deepEqual(JSON.parse(outcome.body), { token });
    });

    await step('the bearer authorization survives a reload (persistAuthorization)', async () => {
      // Reloaded without the #fragment Swagger UI's deep linking left: the operation it names
      // would open by itself while the test opens it, and close again.
      await page.goto(page.url().split('#')[0] ?? page.url());
      await page.locator('.opblock').first().waitFor();
      const op = await docs.tryOut('get', '/api/bearer');
      const outcome = await docs.execute(op, '/api/bearer');
      await docs.shot('bearer-after-reload', op);
      assert.equal(outcome.status, '200', outcome.body);
      assert.deepEqual(JSON.parse(outcome.body), { token });
    });

    await step('Authorize with the API key, then GET /api/headerkey shows 200', async () => {
      await docs.authorize('apiKeyHeader', { input: apiKey });
      const op = await docs.tryOut('get', '/api/headerkey');
      const outcome = await docs.execute(op, '/api/headerkey');
      await docs.shot('headerkey', op);
      assert.equal(outcome.status, '200', outcome.body);
      assert.equal(outcome.requestHeaders['x-api-key'], apiKey);
      assert.match(outcome.body, new RegExp(`Hello, ${APPLICATION}`));
    });

    await step('Authorize with Basic, then GET /api/basic shows 200', async () => {
      await docs.authorize('basic', {
        '#auth-basic-username': USERNAME,
        '#auth-basic-password': PASSWORD,
      });
      const op = await docs.tryOut('get', '/api/basic');
      const outcome = await docs.execute(op, '/api/basic');
      await docs.shot('basic', op);
      assert.equal(outcome.status, '200', outcome.body);
      assert.equal(
        outcome.requestHeaders.authorization,
        `Basic ${Buffer.from(`${USERNAME}:${PASSWORD}`).toString('base64')}`,
      );
      assert.deepEqual(JSON.parse(outcome.body), { httpuser: USERNAME });
    });

    await step('POST /api/auth/login sets the session and CSRF cookies', async () => {
      const op = await docs.tryOut('post', '/api/auth/login');
      await docs.fill(op, 'username', USERNAME);
      await docs.fill(op, 'password', PASSWORD);
      const outcome = await docs.execute(op, '/api/auth/login');
      await docs.shot('login', op);
      assert.equal(outcome.status, '200', outcome.body);
      assert.deepEqual(JSON.parse(outcome.body), { username: USERNAME });
      const cookies = await context.cookies(origin);
      const session = cookies.find((cookie) => cookie.name === 'sessionid');
      const csrf = cookies.find((cookie) => cookie.name === 'csrftoken');
      assert.ok(session, 'the browser keeps the sessionid cookie');
      assert.ok(csrf, 'the browser keeps the csrftoken cookie');
      assert.equal(session.httpOnly, true, 'the session cookie is out of reach of scripts');
      assert.equal(csrf.httpOnly, false, 'the page must be able to read the CSRF cookie');
    });

    await step('GET /api/pets with the session shows 200', async () => {
      const op = await docs.tryOut('get', '/api/pets');
      const outcome = await docs.execute(op, '/api/pets');
      await docs.shot('pets', op);
      assert.equal(outcome.status, '200', outcome.body);
      assert.match(outcome.body, new RegExp(`Pets of ${USERNAME}`));
    });

    await step('POST /api/auth/logout carries X-CSRFToken added by the page: 204', async () => {
      const csrf = (await context.cookies(origin)).find((cookie) => cookie.name === 'csrftoken');
      assert.ok(csrf);
      const op = await docs.tryOut('post', '/api/auth/logout');
      const outcome = await docs.execute(op, '/api/auth/logout');
      await docs.shot('logout', op);
      assert.equal(
        outcome.requestHeaders['x-csrftoken'],
        decodeURIComponent(csrf.value),
        'the request interceptor copied the csrftoken cookie into X-CSRFToken',
      );
      assert.equal(outcome.status, '204', outcome.body);
      const names = (await context.cookies(origin)).map((cookie) => cookie.name);
      assert.ok(!names.includes('sessionid'), 'logout removes the session cookie');
      assert.ok(!names.includes('csrftoken'), 'logout removes the CSRF cookie');
    });

    await step('GET /api/pets after logout shows 401', async () => {
      const op = await docs.tryOut('get', '/api/pets');
      const outcome = await docs.execute(op, '/api/pets');
      await docs.shot('pets-after-logout', op);
      assert.equal(outcome.status, '401', outcome.body);
    });

    await step('the page raised no script errors and called nothing outside the service', () => {
      assert.deepEqual(pageErrors, []);
      assert.equal(refusals.length, 1, 'only GET /api/pets after logout was refused (401)');
      assert.match(refusals[0] ?? '', /status of 401/);
      assert.deepEqual(offOrigin, []);
      return Promise.resolve();
    });
  },
);
