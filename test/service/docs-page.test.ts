// The docs page in a real browser: Debian's Chromium, driven by playwright-core, uses Swagger UI
// on the running service the way a person would (Try it out, Authorize, Execute) and checks that
// every kind of credential the page offers works, that authorization survives a reload, and that
// the page adds the CSRF header to logout by itself, and that what it keeps in localStorage holds
// tokens and keys but never a password. Screenshots go to test-results/screenshots/.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { buildApp } from '../../service/app.js';
import { PERSISTENCE_NOTE } from '../../src/openapi/persist-tokens-only-source.js';
import { loadConfig } from '../../service/config/config.js';
import { hashPassword } from '../../service/security/passwords.js';
import { digest, newApiKey, newSecret } from '../../service/security/secrets.js';
import { openStore } from '../../service/store/open-store.js';
import { freePort } from '../helpers/wait.js';
import { openChromium, PAGE_TEST_MS, type DocsPage } from '../browser/swagger-ui.js';

const USERNAME = 'alice';
const PASSWORD = 'correct horse battery staple';
const APPLICATION = 'docs-page-app';

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
  await store.grantUserScope(USERNAME, 'admin');
  const { key, prefix } = newApiKey();
  await store.createApplication(APPLICATION, prefix, digest(key), now);

  const app = await buildApp({ config, store, secretKey: newSecret(32), logger: false });
  t.after(() => app.close());
  await app.listen({ port, host: config.host });
  return { origin, apiKey: key };
}

/** Everything the page keeps in localStorage, as one text. */
async function kept(docs: DocsPage): Promise<string> {
  return docs.page.evaluate(() =>
    JSON.stringify(
      Object.fromEntries(Object.keys(localStorage).map((k) => [k, localStorage.getItem(k)])),
    ),
  );
}

/** Fails if `text` holds the password in any form a page could have stored it in. */
function assertNoPassword(text: string): void {
  for (const form of [
    PASSWORD,
    encodeURIComponent(PASSWORD),
    new URLSearchParams({ p: PASSWORD }).toString().slice(2),
    Buffer.from(`${USERNAME}:${PASSWORD}`).toString('base64'),
  ]) {
    assert.equal(text.includes(form), false, `localStorage holds the password (${form}): ${text}`);
  }
}

test(
  'the docs page works in Chromium with every kind of credential',
  {
    timeout: PAGE_TEST_MS,
  },
  async (t) => {
    const { origin, apiKey } = await startService(t);
    const session = await openChromium(t, origin, 'docs-page');
    if (session === undefined) return;
    const { context, page, docs, pageErrors, refusals, offOrigin, step } = session;

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
      assert.deepEqual(tags, ['examples', 'sign-in', 'events', 'admin', 'service']);
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

    await step('Authorize signs in by the OAuth2 password flow, for the admin scope', async () => {
      const issued = page.waitForResponse(
        (response) => new URL(response.url()).pathname === '/api/token',
      );
      await docs.authorize('oauth2', { '#oauth_username': USERNAME, '#oauth_password': PASSWORD }, [
        'label[for="admin-password-checkbox-oauth2"]',
      ]);
      const grant = await issued;
      assert.equal(grant.status(), 200);
      const sent = new URLSearchParams(grant.request().postData() ?? '');
      assert.equal(sent.get('grant_type'), 'password');
      assert.equal(sent.get('scope'), 'admin');
      const answer = (await grant.json()) as { access_token: string; scope: string };
      assert.equal(answer.scope, 'admin');

      const bearer = await docs.tryOut('get', '/api/bearer');
      const outcome = await docs.execute(bearer, '/api/bearer');
      assert.equal(outcome.status, '200', outcome.body);
      assert.equal(outcome.requestHeaders.authorization, `Bearer ${answer.access_token}`);
      const admin = await docs.tryOut('get', '/api/admin/users');
      const users = await docs.execute(admin, '/api/admin/users');
      await docs.shot('admin-users', admin);
      assert.equal(users.status, '200', users.body);
      assert.deepEqual(JSON.parse(users.body), { users: [USERNAME] });
      // Signed out again, so the steps below see only what they authorize.
      await docs.logout('oauth2');
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

    let accessToken = '';
    await step(
      'localStorage keeps the token, the key and an OAuth2 token, no password',
      async () => {
        // The dialog says what is kept, once, above the schemes.
        await page.locator('.auth-wrapper .btn.authorize:not(.modal-btn)').click();
        const notes = page.locator('.modal-ux .vouch-persistence-note');
        assert.equal(await notes.count(), 1);
        assert.equal((await notes.textContent())?.trim(), PERSISTENCE_NOTE);
        await notes.scrollIntoViewIfNeeded();
        await docs.shot('persistence-note', page.locator('.modal-ux'));
        await page.locator('.modal-ux-header .close-modal').click();
        await page.locator('.modal-ux').waitFor({ state: 'detached' });

        const issued = page.waitForResponse(
          (response) => new URL(response.url()).pathname === '/api/token',
        );
        await docs.authorize('oauth2', {
          '#oauth_username': USERNAME,
          '#oauth_password': PASSWORD,
        });
        const grant = await issued;
        assert.equal(grant.status(), 200);
        assert.equal(
          new URLSearchParams(grant.request().postData() ?? '').get('password'),
          PASSWORD,
        );
        accessToken = ((await grant.json()) as { access_token: string }).access_token;

        const text = await kept(docs);
        assertNoPassword(text);
        const authorized = JSON.parse(
          (await page.evaluate(() => localStorage.getItem('authorized'))) ?? 'null',
        ) as Record<string, { value?: unknown; token?: unknown }>;
        assert.deepEqual(Object.keys(authorized).sort(), ['apiKeyHeader', 'bearer', 'oauth2']);
        assert.equal(authorized['bearer']?.value, token);
        assert.equal(authorized['apiKeyHeader']?.value, apiKey);
        assert.deepEqual(authorized['oauth2']?.token, {
          token_type: 'bearer',
          access_token: accessToken,
        });
      },
    );

    await step('after a reload the token and key work, Basic must be entered again', async () => {
      await page.goto(page.url().split('#')[0] ?? page.url());
      await page.locator('.opblock').first().waitFor();
      assertNoPassword(await kept(docs));

      const key = await docs.tryOut('get', '/api/headerkey');
      const keyed = await docs.execute(key, '/api/headerkey');
      assert.equal(keyed.status, '200', keyed.body);
      assert.equal(keyed.requestHeaders['x-api-key'], apiKey);
      const admin = await docs.tryOut('get', '/api/admin/users');
      const users = await docs.execute(admin, '/api/admin/users');
      assert.equal(users.status, '200', users.body);
      assert.equal(users.requestHeaders.authorization, `Bearer ${accessToken}`);

      // Authorize offers Basic's form again, empty, while the token is still applied.
      await page.locator('.auth-wrapper .btn.authorize:not(.modal-btn)').click();
      const modal = page.locator('.modal-ux');
      const form = (name: string) =>
        modal
          .locator('.auth-container')
          .filter({ has: page.locator('h4', { hasText: new RegExp(`^\\s*${name}\\s`) }) });
      const password = form('basic').locator('#auth-basic-password');
      await password.scrollIntoViewIfNeeded();
      assert.equal(await password.inputValue(), '');
      assert.equal(await form('basic').locator('button.authorize').count(), 1);
      assert.equal(
        await form('bearer').getByRole('button', { name: 'Remove authorization' }).count(),
        1,
      );
      await docs.shot('basic-after-reload', form('basic'));
      await modal.locator('.modal-ux-header .close-modal').click();
      await modal.waitFor({ state: 'detached' });

      // Entered again, Basic works again, and is still not kept.
      await docs.authorize('basic', {
        '#auth-basic-username': USERNAME,
        '#auth-basic-password': PASSWORD,
      });
      const basic = await docs.tryOut('get', '/api/basic');
      const outcome = await docs.execute(basic, '/api/basic');
      assert.equal(outcome.status, '200', outcome.body);
      assertNoPassword(await kept(docs));
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
