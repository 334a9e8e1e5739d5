import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { APIKeyHeader } from '../api-key/api-key-header.js';
import { HttpBearer } from '../http/http-bearer.js';
import { allOf } from './all-of.js';
import { resolveAuth, type AuthSpec, type Requirement } from './auth-spec.js';
import { authenticate } from './authenticate.js';
import { AuthenticationError, InsufficientScopeError } from './errors.js';
import type { RequestView } from './request.js';
import { checkScopes, grantedScopes, isScopeToken } from './scopes.js';

describe('grantedScopes', () => {
  it('reads scopes, scope and scp', () => {
    assert.deepEqual(grantedScopes({ scopes: ['a', 'b'] }), ['a', 'b']);
    assert.deepEqual(grantedScopes({ scope: ' a  b ' }), ['a', 'b']);
    assert.deepEqual(grantedScopes({ scp: ['a', 7, 'c'] }), ['a', 'c']);
    assert.deepEqual(grantedScopes({ scp: 'a' }), ['a']);
    assert.deepEqual(grantedScopes({ scopes: 3, scope: 'b' }), ['b'], 'the first usable claim');
  });

  it('finds none in anything else', () => {
    for (const value of [undefined, null, 'admin', 42, {}, { scope: {} }]) {
      assert.deepEqual(grantedScopes(value), []);
    }
  });
});

describe('isScopeToken', () => {
  it('takes printable ASCII but space, quote and backslash', () => {
    for (const scope of ['admin', 'pets:read', '!#[]~', 'https://api.example/read']) {
      assert.equal(isScopeToken(scope), true, scope);
    }
    for (const scope of ['', 'two words', 'quo"te', 'back\\slash', 'tab\t', 'café']) {
      assert.equal(isScopeToken(scope), false, scope);
    }
  });
});

describe('checkScopes', () => {
  it('keeps scope-tokens once each, frozen', () => {
    const scopes = checkScopes(['pets:read', 'pets:read', 'admin'], 'GET /x');
    assert.deepEqual(scopes, ['pets:read', 'admin']);
    assert.ok(Object.isFrozen(scopes));
  });

  it('refuses what no token could carry, naming the route', () => {
    for (const bad of [[], 'admin', ['two words'], ['quo"te'], ['back\\slash'], [''], [1]]) {
      assert.throws(() => checkScopes(bad, 'GET /x'), {
        code: 'VOUCH_ERR_CONFIGURATION',
        message: /^GET \/x: /,
      });
    }
  });
});

describe('authenticate with scopes', () => {
  const tokens = new Map([
    ['none', { sub: 'a' }],
    ['read', { sub: 'b', scope: 'pets:read' }],
    ['both', { sub: 'c', scope: 'pets:read pets:write' }],
  ]);
  const bearer = new HttpBearer({ tokens });
  const ownRealm = new HttpBearer({ name: 'other', realm: 'pets', tokens });
  const key = new APIKeyHeader({
    paramName: 'k',
    keys: new Map([['w', { scopes: ['pets:write'] }]]),
  });
  const request = (headers: Record<string, string>): RequestView => ({
    method: 'GET',
    url: '/x',
    headers,
    raw: { rawHeaders: Object.entries(headers).flat() },
  });
  const run = (spec: AuthSpec, headers: Record<string, string>, scopes: readonly string[]) =>
    authenticate(resolveAuth(spec, 'GET /x') as readonly Requirement[], request(headers), {
      realm: 'api',
      scopes,
    });

  it('passes a credential that grants every scope', async () => {
    const result = await run(bearer, { authorization: 'Bearer both' }, ['pets:read', 'pets:write']);
    assert.equal(result.ok, true);
  });

  it('answers 403 with the insufficient_scope challenge, in the authenticator realm', async () => {
    const result = await run([bearer, ownRealm], { authorization: 'Bearer read' }, ['pets:write']);
    assert.ok(!result.ok);
    assert.ok(result.error instanceof InsufficientScopeError);
    assert.deepEqual(result.challenges, [
      'Bearer realm="api", error="insufficient_scope", scope="pets:write"',
      'Bearer realm="pets", error="insufficient_scope", scope="pets:write"',
    ]);
  });

  it('lets an all-of group grant the scopes together', async () => {
    const headers = { authorization: 'Bearer read', k: 'w' };
    const together = await run(allOf(bearer, key), headers, ['pets:read', 'pets:write']);
    assert.equal(together.ok, true);
    const alone = await run(bearer, headers, ['pets:read', 'pets:write']);
    assert.equal(alone.ok, false);
  });

  it('still answers 401 when nothing accepted', async () => {
    const result = await run(bearer, {}, ['pets:read']);
    assert.ok(!result.ok && result.error instanceof AuthenticationError);
  });

  it('reads the scopes where a subclass keeps them', async () => {
    class Roles extends HttpBearer<{ roles: string[] }> {
      override scopesOf(value: { roles: string[] }): readonly string[] {
        return value.roles;
      }
    }
    const roles = new Roles({ tokens: new Map([['r', { roles: ['admin'] }]]) });
    const result = await run(roles, { authorization: 'Bearer r' }, ['admin']);
    assert.equal(result.ok, true);
  });
});
