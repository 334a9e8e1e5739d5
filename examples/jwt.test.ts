// Runs examples/jwt.ts as its reader would and proves what it says: the API refuses a request
// without a token, and accepts one minted by the demo issuer, verified against its JWKS.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runExample } from '../test/helpers/example.js';

describe('examples/jwt.ts', () => {
  it('refuses without a token, accepts a token from the issuer, refuses a forged one', async (t) => {
    const base = await runExample(t, 'jwt.ts');
    const me = (authorization?: string) =>
      fetch(`${base}/api/me`, authorization === undefined ? {} : { headers: { authorization } });

    const without = await me();
    assert.equal(without.status, 401);
    assert.equal(without.headers.get('www-authenticate'), 'Bearer realm="api"');
    assert.deepEqual(await without.json(), { detail: 'Unauthorized' });

    const minted = await fetch(`${base}/demo-issuer/token`, { method: 'POST' });
    const { access_token: token, token_type: type } = (await minted.json()) as {
      access_token: string;
      token_type: string;
    };
    assert.equal(type, 'Bearer');
    const allowed = await me(`Bearer ${token}`);
    assert.equal(allowed.status, 200);
    assert.deepEqual(await allowed.json(), { subject: 'demo-user', scope: 'pets:read' });

    // The same token with another subject written in: its signature no longer holds.
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as object;
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'admin' })).toString('base64url');
    const refused = await me(`Bearer ${header}.${forged}.${signature}`);
    assert.equal(refused.status, 401);
    assert.equal(
      refused.headers.get('www-authenticate'),
      'Bearer realm="api", error="invalid_token"',
    );
    assert.deepEqual(await refused.json(), { detail: 'Unauthorized' });
  });
});
