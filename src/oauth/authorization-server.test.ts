// Discovery of an authorization server's metadata (RFC 8414, OpenID Connect Discovery) against
// oidc-provider on a loopback port, and against a server that answers what none should.
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import {
  startAuthorizationServer,
  type AuthorizationServerOptions as TestServerOptions,
} from '../../test/helpers/authorization-server.js';
import { loopbackServer } from '../../test/helpers/loopback-server.js';
import { ConfigurationError, StoreUnavailableError } from '../core/errors.js';
import { authorizationServer, metadataUrls } from './authorization-server.js';

const RFC8414 = '/.well-known/oauth-authorization-server';
const OPENID = '/.well-known/openid-configuration';

async function testServer(t: TestContext, options?: TestServerOptions) {
  const server = await startAuthorizationServer(options);
  t.after(() => server.close());
  return server;
}

/** A server answering every request with `status` and `body` (given its own origin); its origin. */
function answering(
  t: TestContext,
  status: number,
  body: string | ((origin: string) => string),
): Promise<string> {
  return loopbackServer(t, (origin) => (_request, response) => {
    const text = typeof body === 'string' ? body : body(origin);
    response.writeHead(status, { 'content-type': 'application/json' }).end(text);
  });
}

/** Asserts that `promise` rejects with a 503 whose message matches `message`. */
async function unavailable(promise: Promise<unknown>, message: RegExp, retryAfter = 5) {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof StoreUnavailableError);
    assert.equal(error.code, 'VOUCH_ERR_STORE_UNAVAILABLE');
    assert.equal(error.retryAfter, retryAfter);
    assert.match(error.message, message);
    return true;
  });
}

describe('authorizationServer: discovery', () => {
  it('RFC 8414 §3.1: the well-known path goes before the issuer path, without its last /', () => {
    assert.deepEqual(metadataUrls('https://as.example.com/tenant/a/'), [
      'https://as.example.com/.well-known/oauth-authorization-server/tenant/a',
      'https://as.example.com/tenant/a/.well-known/openid-configuration',
    ]);
    for (const issuer of ['https://as.example.com', 'https://as.example.com/']) {
      assert.deepEqual(metadataUrls(issuer), [
        'https://as.example.com/.well-known/oauth-authorization-server',
        'https://as.example.com/.well-known/openid-configuration',
      ]);
    }
  });

  it('reads RFC 8414 metadata of oidc-provider: jwks_uri and introspection_endpoint', async (t) => {
    const as = await testServer(t, { issuerPath: '/tenant-a' });
    const metadata = await authorizationServer(as.issuer).metadata();
    assert.equal(metadata.issuer, as.issuer);
    assert.equal(metadata.jwks_uri, as.jwksUri);
    assert.equal(metadata.introspection_endpoint, as.introspectionEndpoint);
    assert.equal(as.requestCount(`${RFC8414}/tenant-a`), 1);
    assert.equal(as.requestCount(`/tenant-a${OPENID}`), 0);
  });

  it('falls back to OpenID Connect Discovery where RFC 8414 metadata is not served', async (t) => {
    const as = await testServer(t, { rfc8414: false, issuerPath: '/tenant-b' });
    const metadata = await authorizationServer(as.issuer).metadata();
    assert.equal(metadata.jwks_uri, as.jwksUri);
    assert.equal(as.requestCount(`${RFC8414}/tenant-b`), 1);
    assert.equal(as.requestCount(`/tenant-b${OPENID}`), 1);
  });

  it('fetches once and keeps it; concurrent callers share the fetch', async (t) => {
    const as = await testServer(t);
    const server = authorizationServer(as.issuer);
    const all = await Promise.all(Array.from({ length: 20 }, () => server.metadata()));
    assert.ok(all.every((metadata) => metadata === all[0]));
    assert.equal(await server.metadata(), all[0]);
    assert.equal(as.requestCount(RFC8414), 1);
  });

  describe('RFC 8414 §3.3: a document naming another issuer is refused (503)', () => {
    it('a server claiming to be another issuer (mix-up)', async (t) => {
      const as = await testServer(t, { issuer: 'https://login.example.com' });
      await unavailable(
        authorizationServer(as.origin).metadata(),
        /names issuer "https:\/\/login\.example\.com"/,
      );
      assert.equal(as.requestCount(OPENID), 0, 'no fallback past a wrong document');
    });

    it('the issuer asked with a trailing slash its metadata does not have', async (t) => {
      const as = await testServer(t);
      await unavailable(authorizationServer(`${as.origin}/`).metadata(), /names issuer/);
      assert.equal((await authorizationServer(as.origin).metadata()).issuer, as.origin);
    });
  });

  describe('a discovery that fails is a StoreUnavailableError (503), tried again after the cooldown', () => {
    it('no document at either location, then the server down: Retry-After is what is left', async (t) => {
      t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
      const as = await testServer(t);
      const server = authorizationServer(`${as.origin}/tenant`, { cooldown: 3000 });
      // Neither location serves an issuer with this path: 404, then 404.
      await unavailable(server.metadata(), /no metadata at .*\/tenant/, 3);
      assert.equal(as.requestCount(), 2);
      t.mock.timers.tick(1_500);
      await unavailable(server.metadata(), /no metadata/, 2);
      assert.equal(as.requestCount(), 2, 'not asked again within the cooldown');

      const down = authorizationServer(as.origin, { cooldown: 3000 });
      await as.close();
      await unavailable(down.metadata(), /fetch failed/, 3);
    });

    it('slow: beyond the timeout, then answered once the cooldown is over', async (t) => {
      t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
      const as = await testServer(t);
      const server = authorizationServer(as.issuer, { timeout: 100, cooldown: 1000 });
      as.stalled = true;
      await unavailable(server.metadata(), /timeout|abort/i, 1);
      as.stalled = false;
      await unavailable(server.metadata(), /timeout|abort/i, 1);
      t.mock.timers.tick(1_001);
      assert.equal((await server.metadata()).jwks_uri, as.jwksUri);
    });

    it('a server that stops in the middle of its answer: the timeout, not "no metadata"', async (t) => {
      // No RFC 8414 document; the OpenID one begins, and never ends.
      const origin = await loopbackServer(t, () => (request, response) => {
        if (request.url?.startsWith(RFC8414)) response.writeHead(404).end();
        else response.writeHead(200, { 'content-type': 'application/json' }).write('{"issuer":');
      });
      await unavailable(authorizationServer(origin, { timeout: 100 }).metadata(), /timeout|abort/i);
    });

    const answers: readonly [string, number, string, RegExp][] = [
      ['a status other than 200', 500, '{"issuer":"x"}', /no metadata/],
      ['HTML', 200, '<html></html>', /no metadata/],
      ['JSON that is not an object', 200, '["issuer"]', /no metadata/],
      ['a document without issuer', 200, '{"jwks_uri":"https://a.example/jwks"}', /names issuer/],
    ];
    for (const [what, status, body, message] of answers) {
      it(`a server answering ${what}`, async (t) => {
        const origin = await answering(t, status, body);
        await unavailable(authorizationServer(origin).metadata(), message);
      });
    }

    it('a document whose endpoints are not https URLs (http only on a loopback host)', async (t) => {
      const endpoints: readonly [string, unknown][] = [
        ['jwks_uri', 'http://keys.example.com/jwks'],
        ['jwks_uri', 'keys'],
        ['introspection_endpoint', 'https://as.example.com/introspect#x'],
        ['introspection_endpoint', 42],
      ];
      for (const [field, value] of endpoints) {
        const origin = await answering(t, 200, (issuer) =>
          JSON.stringify({ issuer, [field]: value }),
        );
        await unavailable(authorizationServer(origin).metadata(), new RegExp(`${field} is not`));
      }
      const good = await answering(t, 200, (issuer) =>
        JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks`, extra: [1] }),
      );
      assert.deepEqual(await authorizationServer(good).metadata(), {
        issuer: good,
        jwks_uri: `${good}/jwks`,
        extra: [1],
      });
    });
  });

  it('refuses at construction an issuer that is not an https URL, and bad timings', () => {
    const refused: [string, object?][] = [
      ['login.example.com'],
      ['http://login.example.com'],
      ['https://login.example.com/?tenant=a'],
      ['https://login.example.com/#x'],
      ['https://login.example.com', { timeout: 0 }],
      ['https://login.example.com', { cooldown: 1.5 }],
    ];
    for (const [issuer, options] of refused) {
      assert.throws(() => authorizationServer(issuer, options), ConfigurationError, issuer);
    }
    assert.equal(authorizationServer('http://127.0.0.1:9/').issuer, 'http://127.0.0.1:9/');
  });
});
