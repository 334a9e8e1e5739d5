// What IntrospectionBearer is before any token: its description and the options it refuses.
// Its answers against a real authorization server are in test/spec/rfc7662-introspection.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigurationError } from '../core/errors.js';
import {
  IntrospectionBearer,
  protectedResource,
  type IntrospectionBearerOptions,
} from './index.js';

const ENDPOINT = 'https://login.example.com/oauth2/introspect';
const resource = protectedResource({
  resource: 'https://api.example.com/mcp',
  authorizationServers: ['https://login.example.com'],
});
const base: IntrospectionBearerOptions = {
  introspectionEndpoint: ENDPOINT,
  clientId: 'api',
  clientSecret: 'secret-value-never-shown',
  resource,
};

describe('IntrospectionBearer', () => {
  it('is documented as http bearer without a format, and may answer 503', () => {
    const bearer = new IntrospectionBearer(base);
    assert.deepEqual(bearer.securityScheme, { type: 'http', scheme: 'bearer' });
    assert.equal(bearer.schemeName, 'bearerAuth_introspection');
    assert.equal(bearer.consultsStore, true);
    assert.equal(bearer.resource, resource);
    const named = new IntrospectionBearer({ ...base, name: 'opaque', description: 'Opaque' });
    assert.equal(named.schemeName, 'opaque');
    assert.deepEqual(named.securityScheme, {
      type: 'http',
      scheme: 'bearer',
      description: 'Opaque',
    });
  });

  it('takes an audience and an issuer instead of a resource, or false for any', () => {
    const withoutResource = { ...base, resource: undefined };
    assert.ok(
      new IntrospectionBearer({ ...withoutResource, audience: 'a', issuer: ['https://x.test'] }),
    );
    assert.ok(new IntrospectionBearer({ ...withoutResource, audience: false, issuer: false }));
    assert.ok(new IntrospectionBearer({ ...base, introspectionEndpoint: new URL(ENDPOINT) }));
    for (const audience of [resource.resource, [resource.resource] as const]) {
      assert.ok(
        new IntrospectionBearer({ ...base, audience }),
        'the resource itself, as JwtBearer',
      );
    }
  });

  const refused: readonly [
    string,
    Partial<Record<keyof IntrospectionBearerOptions, unknown>>,
    RegExp,
  ][] = [
    [
      'a resource and another audience',
      { audience: 'https://api.example.com/' },
      /resource identifier/,
    ],
    [
      'a resource and two audiences',
      { audience: ['https://api.example.com/mcp', 'https://x.test'] },
      /resource identifier/,
    ],
    ['no audience without a resource', { resource: undefined, issuer: false }, /audience/],
    ['no issuer without a resource', { resource: undefined, audience: false }, /issuer/],
    ['an empty audience list', { resource: undefined, audience: [], issuer: false }, /audience/],
    [
      'an endpoint that is not https',
      { introspectionEndpoint: 'http://login.example.com/i' },
      /https/,
    ],
    ['a relative endpoint', { introspectionEndpoint: '/introspect' }, /https/],
    [
      'an endpoint with credentials',
      { introspectionEndpoint: 'https://api:secret-value-never-shown@login.example.com/i' },
      /no credentials/,
    ],
    [
      'an http endpoint with credentials, naming neither',
      { introspectionEndpoint: 'http://api:secret-value-never-shown@login.example.com/i' },
      /no credentials/,
    ],
    ['an endpoint with a fragment', { introspectionEndpoint: `${ENDPOINT}#x` }, /fragment/],
    ['no client id', { clientId: '' }, /clientId/],
    ['no client secret', { clientSecret: undefined }, /clientSecret/],
    [
      'an unknown client authentication',
      { clientAuthentication: 'private_key_jwt' },
      /client_secret_basic/,
    ],
    ['a timeout of 0', { timeout: 0 }, /timeout/],
    ['a negative cacheMaxAge', { cacheMaxAge: -1 }, /cacheMaxAge/],
    ['a fractional negativeCacheMaxAge', { negativeCacheMaxAge: 1.5 }, /negativeCacheMaxAge/],
    ['an infinite cacheSize', { cacheSize: Infinity }, /cacheSize/],
    ['a negative clock tolerance', { clockTolerance: -1 }, /clockTolerance/],
  ];
  for (const [what, options, message] of refused) {
    it(`refuses ${what} at construction`, () => {
      assert.throws(
        () => new IntrospectionBearer({ ...base, ...options } as IntrospectionBearerOptions),
        (error) =>
          error instanceof ConfigurationError &&
          message.test(error.message) &&
          !error.message.includes('secret-value-never-shown'),
      );
    });
  }
});
