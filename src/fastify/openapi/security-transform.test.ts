import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SwaggerTransform } from '@fastify/swagger';
import type { RouteOptions } from 'fastify';
import { HttpBearer, resolveAuth, type SecurityScheme } from '../../index.js';
import { setRouteAuth } from '../route-auth.js';
import { securityTransform, securityTransformObject } from './security-transform.js';

const bearer = new HttpBearer({ authenticate: (_request, token) => token });
const schemes: Record<string, SecurityScheme> = { bearerAuth: bearer.securityScheme };
const app = { vouch: { securitySchemes: () => schemes, realm: 'pets' } };

type Input = Parameters<SwaggerTransform>[0];

function routeOf(method: string, known: boolean): RouteOptions {
  const route = { method, url: '/x', handler: () => undefined } as unknown as RouteOptions;
  if (known) setRouteAuth(route, { requirements: resolveAuth(bearer, 't'), csrf: true });
  return route;
}

function input(route: RouteOptions, document: Record<string, unknown> = {}): Input {
  return { schema: { summary: 's' }, url: '/x', route, openapiObject: document };
}

describe('securityTransform', () => {
  it("adds the route's security and responses, and the schemes they name", () => {
    const document: Record<string, unknown> = { components: { schemas: {} } };
    const result = securityTransform(app)(input(routeOf('GET', true), document));
    assert.equal(result.url, '/x');
    assert.deepEqual(result.schema.security, [{ bearerAuth: [] }]);
    assert.equal(result.schema.summary, 's');
    const response = result.schema.response as Record<string, { headers?: unknown }>;
    assert.match(JSON.stringify(response['401']!.headers), /Bearer realm=\\"pets\\"/);
    assert.deepEqual(document['components'], {
      schemas: {},
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
    });
    const components = document['components'] as { securitySchemes: Record<string, unknown> };
    assert.notEqual(components.securitySchemes['bearerAuth'], bearer.securityScheme);
  });

  it("applies the user's transform first, then adds security to what it returns", () => {
    const seen: string[] = [];
    const user: SwaggerTransform = ({ schema, url }) => {
      seen.push(url);
      return { schema: { ...schema, tags: ['pets'] }, url: `/v2${url}` };
    };
    const result = securityTransform(app, user)(input(routeOf('GET', true)));
    assert.deepEqual(seen, ['/x']);
    assert.equal(result.url, '/v2/x');
    assert.deepEqual(result.schema.tags, ['pets']);
    assert.deepEqual(result.schema.security, [{ bearerAuth: [] }]);
  });

  it('keeps the schema and url when the user transform returns only part', () => {
    const partial = (() => ({})) as unknown as SwaggerTransform;
    const result = securityTransform(app, partial)(input(routeOf('GET', true)));
    assert.equal(result.url, '/x');
    assert.equal(result.schema.summary, 's');
  });

  it('leaves routes vouch did not see as they are', () => {
    const result = securityTransform(app)(input(routeOf('GET', false)));
    assert.deepEqual(result, { schema: { summary: 's' }, url: '/x' });
  });

  it('leaves Swagger 2.0 documents alone', () => {
    const swagger2 = { schema: {}, url: '/x', route: routeOf('GET', true), swaggerObject: {} };
    const result = securityTransform(app)(swagger2);
    assert.deepEqual(result, { schema: {}, url: '/x' });
  });

  it('marks public routes security: [], whether or not the document has a top-level one', () => {
    const route = routeOf('GET', false);
    setRouteAuth(route, { requirements: null, csrf: true });
    const withTop = securityTransform(app)(input(route, { security: [{ bearerAuth: [] }] }));
    assert.deepEqual(withTop.schema.security, []);
    const without = securityTransform(app)(input(route));
    assert.deepEqual(without.schema.security, []);
  });
});

describe('securityTransformObject', () => {
  it("merges vouch's schemes over the document's own", () => {
    const openapiObject = {
      components: {
        securitySchemes: {
          mine: { type: 'http', scheme: 'digest' },
          bearerAuth: { type: 'http', scheme: 'wrong' },
        },
      },
    };
    const result = securityTransformObject(app)({ openapiObject } as never) as typeof openapiObject;
    assert.deepEqual(result.components.securitySchemes, {
      mine: { type: 'http', scheme: 'digest' },
      bearerAuth: { type: 'http', scheme: 'bearer' },
    });
  });

  it('adds no securitySchemes when there are none', () => {
    const none = { vouch: { securitySchemes: () => ({}), realm: 'api' } };
    const openapiObject: Record<string, unknown> = { paths: {} };
    assert.deepEqual(securityTransformObject(none)({ openapiObject }), { paths: {} });
  });

  it("hands the document to the user's transformObject", () => {
    const result = securityTransformObject(app, (document) => ({
      ...('openapiObject' in document ? document.openapiObject : {}),
      'x-seen': true,
    }))({ openapiObject: {} });
    assert.deepEqual(result, {
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
      'x-seen': true,
    });
  });

  it('returns a Swagger 2.0 document untouched', () => {
    const swaggerObject = { swagger: '2.0' };
    assert.equal(securityTransformObject(app)({ swaggerObject }), swaggerObject);
  });
});
