import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { build } from '../../test/helpers/build.js';
import { vouchOpenapi } from '../fastify/openapi/index.js';
import { OAuth2PasswordBearer } from './oauth2-password-bearer.js';

const tokens = new Map([['t-read', { sub: 'ann', scope: 'pets:read' }]]);
const oauth2 = new OAuth2PasswordBearer({
  tokenUrl: '/api/token',
  scopes: { 'pets:read': 'Read your pets', admin: 'Everything' },
  description: 'Sign in with your username and password',
  tokens,
});

async function app(t: TestContext) {
  const fastify = await build(t, { auth: oauth2 });
  await fastify.register(vouchOpenapi, { openapi: { info: { title: 'T', version: '1' } } });
  fastify.get('/pets', { scopes: ['pets:read'] }, async (request) => request.auth);
  fastify.get('/admin', { scopes: ['admin'] }, async () => 'ok');
  return fastify;
}

describe('OAuth2PasswordBearer', () => {
  it('documents an OAuth2 password flow, its scopes listed per operation', async (t) => {
    const fastify = await app(t);
    const document = (await fastify.inject({ url: '/api/openapi.json' })).json<{
      paths: Record<string, { get: { security: unknown } }>;
      components: { securitySchemes: Record<string, unknown> };
    }>();
    assert.deepEqual(document.components.securitySchemes, {
      oauth2Password: {
        type: 'oauth2',
        flows: {
          password: {
            tokenUrl: '/api/token',
            scopes: { 'pets:read': 'Read your pets', admin: 'Everything' },
          },
        },
        description: 'Sign in with your username and password',
      },
    });
    assert.deepEqual(document.paths['/pets']?.get.security, [{ oauth2Password: ['pets:read'] }]);
    const result = await new Validator().validate(document);
    assert.equal(result.valid, true, JSON.stringify(result.errors));
  });

  it('verifies Bearer tokens and answers a lack of scope with 403', async (t) => {
    const fastify = await app(t);
    const headers = { authorization: 'Bearer t-read' };
    const pets = await fastify.inject({ url: '/pets', headers });
    assert.deepEqual(pets.json(), { sub: 'ann', scope: 'pets:read' });
    const admin = await fastify.inject({ url: '/admin', headers });
    assert.equal(admin.statusCode, 403);
    assert.equal(
      admin.headers['www-authenticate'],
      'Bearer realm="api", error="insufficient_scope", scope="admin"',
    );
    const none = await fastify.inject({ url: '/admin' });
    assert.equal(none.statusCode, 401);
    assert.equal(none.headers['www-authenticate'], 'Bearer realm="api"');
  });

  it('refuses a token URL or scope names no client could use', () => {
    for (const [options, message] of [
      [{ tokenUrl: '' }, /tokenUrl must be a non-empty URL/],
      [{ tokenUrl: '/token\n' }, /tokenUrl "\/token\\n" must be printable ASCII/],
      [{ tokenUrl: '/t', scopes: { 'two words': '' } }, /scope "two words" is not/],
    ] as const) {
      assert.throws(() => new OAuth2PasswordBearer({ ...options, tokens }), {
        code: 'VOUCH_ERR_CONFIGURATION',
        message,
      });
    }
  });

  it('takes another scheme name', () => {
    const named = new OAuth2PasswordBearer({ name: 'login', tokenUrl: '/t', tokens });
    assert.equal(named.schemeName, 'login');
    assert.deepEqual(named.securityScheme, {
      type: 'oauth2',
      flows: { password: { tokenUrl: '/t', scopes: {} } },
    });
  });
});
