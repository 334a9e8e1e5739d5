// The docs pages of examples/hono.ts (@hono/zod-openapi, @hono/swagger-ui), examples/express.ts
// (swagger-ui-express) and examples/nestjs.ts (@nestjs/swagger) in Chromium: the description vouch filled offers both schemes under
// Authorize, Try it out sends what they hold, answered as the declarations say, and what the page
// keeps across reloads is the token and the key, as its Authorize dialog says.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { test, type TestContext } from 'node:test';
import { serve } from '@hono/node-server';
import { app as expressApp } from '../../examples/express.js';
import { app as honoApp } from '../../examples/hono.js';
import { createApp as createNestApp } from '../../examples/nestjs.js';
import { PERSISTENCE_NOTE } from '../../src/openapi/persist-tokens-only-source.js';
import { openChromium, PAGE_TEST_MS } from './swagger-ui.js';

/** Each example listening on a free loopback port, closed when the test ends. */
const examples: Record<string, (t: TestContext) => Promise<string>> = {
  hono: async (t) => {
    const server = serve({ fetch: honoApp.fetch, port: 0, hostname: '127.0.0.1' });
    t.after(() => new Promise((resolve) => server.close(resolve)));
    await new Promise((resolve) => server.once('listening', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  },
  express: async (t) => {
    const server = expressApp.listen(0, '127.0.0.1');
    t.after(() => new Promise((resolve) => server.close(resolve)));
    await new Promise((resolve) => server.once('listening', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  },
  nestjs: async (t) => {
    const app = await createNestApp();
    t.after(() => app.close());
    await app.listen(0, '127.0.0.1');
    return app.getUrl();
  },
};

for (const [engine, listen] of Object.entries(examples)) {
  test(
    `the ${engine} docs page authorizes, tries operations and keeps tokens and keys only`,
    { timeout: PAGE_TEST_MS },
    async (t) => {
      const origin = await listen(t);
      const session = await openChromium(t, origin, `${engine}-docs-page`);
      if (session === undefined) return;
      const { page, docs, pageErrors, refusals, offOrigin, step } = session;

      await step('the page renders the operations of the filled description', async () => {
        await docs.open(`${origin}/api/docs`);
        await docs.operation('get', '/api/bearer').waitFor();
        const locked = docs.operation('get', '/api/bearer').locator('.authorization__btn');
        assert.equal(await locked.count(), 1, 'GET /api/bearer shows its lock');
        const open = docs.operation('get', '/api/health').locator('.authorization__btn');
        assert.equal(await open.count(), 0, 'GET /api/health needs nothing');
        await docs.shot('loaded');
      });

      await step('Authorize lists both schemes, under a note on what is kept', async () => {
        await page.locator('.auth-wrapper .btn.authorize:not(.modal-btn)').click();
        const modal = page.locator('.modal-ux');
        const names = await modal.locator('.auth-container h4 code').allTextContents();
        assert.deepEqual(names, ['bearerAuth', 'apiKeyHeader_X-API-Key']);
        const notes = modal.locator('.vouch-persistence-note');
        assert.equal(await notes.count(), 1);
        assert.equal((await notes.textContent())?.trim(), PERSISTENCE_NOTE);
        await modal.locator('.modal-ux-header .close-modal').click();
        await modal.waitFor({ state: 'detached' });
      });

      await step('GET /api/bearer before Authorize shows 401', async () => {
        const op = await docs.tryOut('get', '/api/bearer');
        const outcome = await docs.execute(op, '/api/bearer');
        assert.equal(outcome.status, '401', outcome.body);
        assert.deepEqual(JSON.parse(outcome.body), { detail: 'Unauthorized' });
      });

      await step('Authorize with the token, then GET /api/bearer shows 200', async () => {
        await docs.authorize('bearerAuth', { '#auth-bearer-value': 'change-me' });
        const op = await docs.tryOut('get', '/api/bearer');
        const outcome = await docs.execute(op, '/api/bearer');
        await docs.shot('bearer', op);
        assert.equal(outcome.status, '200', outcome.body);
        assert.equal(outcome.requestHeaders.authorization, 'Bearer change-me');
        assert.deepEqual(JSON.parse(outcome.body), { token: 'admin' });
      });

      await step('Authorize with the API key, then GET /api/headerkey shows 200', async () => {
        await docs.authorize('apiKeyHeader_X-API-Key', { input: 'demo-key' });
        const op = await docs.tryOut('get', '/api/headerkey');
        const outcome = await docs.execute(op, '/api/headerkey');
        await docs.shot('headerkey', op);
        assert.equal(outcome.status, '200', outcome.body);
        assert.equal(outcome.requestHeaders['x-api-key'], 'demo-key');
        assert.deepEqual(JSON.parse(outcome.body), { hello: 'demo app' });
      });

      await step('localStorage keeps the token and the key; they work after a reload', async () => {
        const stored = await page.evaluate(() => localStorage.getItem('authorized'));
        const authorized = JSON.parse(stored ?? 'null') as Record<string, { value: unknown }>;
        assert.deepEqual(Object.keys(authorized).sort(), ['apiKeyHeader_X-API-Key', 'bearerAuth']);
        assert.equal(authorized['bearerAuth']?.value, 'change-me');
        assert.equal(authorized['apiKeyHeader_X-API-Key']?.value, 'demo-key');
        await page.goto(page.url().split('#')[0] ?? page.url());
        await page.locator('.opblock').first().waitFor();
        const op = await docs.tryOut('get', '/api/bearer');
        const outcome = await docs.execute(op, '/api/bearer');
        assert.equal(outcome.status, '200', outcome.body);
        assert.equal(outcome.requestHeaders.authorization, 'Bearer change-me');
      });

      await step('the page raised no script errors and called nothing outside the service', () => {
        assert.deepEqual(pageErrors, []);
        // The browser also asks for /favicon.ico, which the example does not serve.
        const api = refusals.filter((refusal) => !refusal.includes('/favicon.ico'));
        assert.equal(api.length, 1, api.join('\n'));
        assert.match(api[0] ?? '', /status of 401 .*\/api\/bearer\)$/);
        assert.deepEqual(offOrigin, []);
        return Promise.resolve();
      });
    },
  );
}
