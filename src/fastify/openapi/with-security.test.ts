import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FastifySchema } from 'fastify';
import { HttpBearer, MemorySessionStore, resolveAuth, SessionAuth } from '../../index.js';
import { describeSecurity, type SecurityDescription } from '../../openapi/describe-security.js';
import { withSecurity } from './with-security.js';

const bearer = new HttpBearer({ authenticate: (_request, token) => token });
const session = new SessionAuth({ store: new MemorySessionStore() });
const protectedRoute = describeSecurity(
  { requirements: resolveAuth(bearer, 't'), csrf: true },
  'GET',
);
const publicRoute = describeSecurity({ requirements: null, csrf: true }, 'GET');

describe('withSecurity', () => {
  it('adds security and the error responses, keeping the default 200', () => {
    const schema = withSecurity(undefined, protectedRoute);
    assert.deepEqual(schema.security, [{ bearerAuth: [] }]);
    const response = schema.response as Record<string, Record<string, unknown>>;
    assert.deepEqual(Object.keys(response), ['200', '400', '401']);
    assert.deepEqual(response['200'], { type: 'null', description: 'Default Response' });
    assert.deepEqual(response['401'], {
      description: 'Unauthorized: no authenticator accepted the request',
      headers: {
        'WWW-Authenticate': {
          type: 'string',
          description: 'One line per authenticator tried, among: `Bearer realm="api"`',
        },
      },
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: { detail: { type: 'string' } },
            required: ['detail'],
          },
        },
      },
    });
  });

  it('keeps a response the route documents for the same status, and adds no default 200', () => {
    const own401 = { description: 'Token missing', type: 'object' };
    const given: FastifySchema = {
      summary: 'Pets',
      response: { 201: { type: 'object' }, 401: own401 },
    };
    const schema = withSecurity(given, protectedRoute);
    const response = schema.response as Record<string, unknown>;
    assert.deepEqual(Object.keys(response).sort(), ['201', '400', '401']);
    assert.equal(response['401'], own401);
    assert.equal(schema.summary, 'Pets');
  });

  it('never changes the schema it is given', () => {
    const given: FastifySchema = { response: { 200: { type: 'string' } }, security: [{ x: [] }] };
    const copy = structuredClone(given);
    withSecurity(given, protectedRoute);
    assert.deepEqual(given, copy);
  });

  it("replaces the route's own security with what is enforced", () => {
    const schema = withSecurity({ security: [{ other: [] }] }, protectedRoute);
    assert.deepEqual(schema.security, [{ bearerAuth: [] }]);
  });

  it('says security: [] on a public route, and leaves its responses alone', () => {
    const schema = withSecurity({ security: [{ other: [] }] }, publicRoute);
    assert.deepEqual(schema.security, []);
    assert.equal('response' in schema, false);
  });

  it('says security: [] and documents the 401 of a route whose only authenticator is undocumented', () => {
    const description: SecurityDescription = describeSecurity(
      { requirements: resolveAuth(() => 'ok', 't'), csrf: true },
      'GET',
    );
    const schema = withSecurity(undefined, description);
    assert.deepEqual(schema.security, []);
    const response = schema.response as Record<string, Record<string, unknown>>;
    assert.deepEqual(Object.keys(response), ['200', '401']);
    assert.equal('headers' in response['401']!, false);
  });

  it('turns response headers into the form @fastify/swagger reads', () => {
    const description = describeSecurity(
      { requirements: resolveAuth(session, 't'), csrf: true },
      'GET',
    );
    const response = withSecurity(undefined, description).response as Record<
      string,
      Record<string, unknown>
    >;
    assert.deepEqual(response['503']!['headers'], {
      'Retry-After': {
        type: 'integer',
        minimum: 0,
        description: 'Seconds to wait before retrying',
      },
    });
  });
});
