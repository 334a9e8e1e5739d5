// Sender-constrained schemes (issue #28) in the description, on Fastify, Hono and Express: DPoP
// documents itself as { type: 'http', scheme: 'DPoP' } and client certificates as
// { type: 'mutualTLS' }; both go through the one derivation every other scheme goes through
// (components.securitySchemes, each operation's security, its 400, 401 and 403), and DPoP's
// refusals are documented as Bearer's are, from its own challenges. A DPoP route may also answer
// 503: its replay store, or its token verifier, may not answer.
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { Validator } from '@seriousme/openapi-schema-validator';
import express, { type RequestHandler } from 'express';
import { allOf, edge, HttpBearer, type AuthSpec } from '../../src/index.js';
import { DPoPBearer } from '../../src/dpop/index.js';
import { vouchOpenapi } from '../../src/fastify/openapi/index.js';
import {
  documentSecurity as documentExpress,
  requireAuth as expressAuth,
} from '../../src/express/index.js';
import { documentSecurity as documentHono, requireAuth as honoAuth } from '../../src/hono/index.js';
import { JwtBearer } from '../../src/jwt/index.js';
import { ClientCertificateAuth } from '../../src/mtls/index.js';
import { build } from '../helpers/build.js';

const dpop = new DPoPBearer({
  tokens: new JwtBearer({
    issuer: 'https://as.test',
    jwksUrl: 'https://as.test/jwks',
    audience: 'https://api.test',
    algorithms: ['RS256'],
  }),
  edge: { publicUrl: ({ url }) => `https://api.test${url.split('?')[0]}` },
});
const certificate = new ClientCertificateAuth({
  edge: edge(),
  map: (certificate) => certificate.subject,
});
const bearer = new HttpBearer({ tokens: new Map([['t', 'ann']]) });

/** One route of the illustrated API: what it declares on every engine. */
interface Declared {
  readonly method: 'get' | 'post';
  readonly path: string;
  readonly auth: AuthSpec;
  readonly scopes?: readonly string[];
}

const routes: readonly Declared[] = [
  { method: 'get', path: '/dpop', auth: dpop },
  { method: 'post', path: '/dpop', auth: dpop },
  { method: 'get', path: '/dpop-or-bearer', auth: [dpop, bearer] },
  { method: 'get', path: '/certificate', auth: certificate },
  { method: 'get', path: '/certificate-and-dpop', auth: [allOf(certificate, dpop), bearer] },
  { method: 'get', path: '/dpop-scoped', auth: dpop, scopes: ['pets:read'] },
  { method: 'get', path: '/certificate-scoped', auth: certificate, scopes: ['pets:read'] },
];

const dpopReq = { dpopAuth: [] };
const certificateReq = { mutualTLS: [] };
const bearerReq = { bearerAuth: [] };

// Every operation: its exact `security` and its error statuses.
const expected: Record<string, [security: unknown, errors: string[]]> = {
  'get /dpop': [[dpopReq], ['400', '401', '503']],
  'post /dpop': [[dpopReq], ['400', '401', '503']],
  'get /dpop-or-bearer': [
    [dpopReq, bearerReq],
    ['400', '401', '503'],
  ],
  'get /certificate': [[certificateReq], ['401']],
  'get /certificate-and-dpop': [
    [{ ...certificateReq, ...dpopReq }, bearerReq],
    ['400', '401', '503'],
  ],
  'get /dpop-scoped': [[{ dpopAuth: ['pets:read'] }], ['400', '401', '403', '503']],
  'get /certificate-scoped': [[{ mutualTLS: ['pets:read'] }], ['401', '403']],
};

interface Response {
  description: string;
  headers?: Record<string, { description: string }>;
}
interface Operation {
  security?: unknown;
  responses: Record<string, Response>;
}
interface Described {
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown> };
}

/** The API on each engine, and the description it serves (filled by vouch). */
const engines: Record<string, (t: TestContext) => Promise<Described>> = {
  async fastify(t) {
    const app = await build(t, { csrf: false });
    await app.register(vouchOpenapi, { openapi: { info: { title: 'DPoP', version: '1.0.0' } } });
    for (const route of routes) {
      app.route({
        method: route.method.toUpperCase(),
        url: route.path,
        auth: route.auth,
        ...(route.scopes === undefined ? {} : { scopes: route.scopes }),
        handler: () => 'ok',
      });
    }
    return (await app.inject('/api/openapi.json')).json<Described>();
  },
  hono() {
    const app = new OpenAPIHono();
    const ok = { 200: { description: 'OK', content: { 'text/plain': { schema: z.string() } } } };
    for (const { method, path, auth, scopes } of routes) {
      const middleware = honoAuth(auth, scopes === undefined ? {} : { scopes });
      app.openapi(createRoute({ method, path, middleware: [middleware], responses: ok }), (c) =>
        c.text('ok'),
      );
    }
    const document = app.getOpenAPI31Document({
      openapi: '3.1.0',
      info: { title: 'DPoP', version: '1.0.0' },
    });
    return Promise.resolve(documentHono(app, document) as unknown as Described);
  },
  express() {
    const app = express();
    const handler: RequestHandler = (_req, res) => {
      res.send('ok');
    };
    const paths: Record<string, Record<string, unknown>> = {};
    for (const { method, path, auth, scopes } of routes) {
      app[method](path, expressAuth(auth, scopes === undefined ? {} : { scopes }), handler);
      paths[path] = { ...paths[path], [method]: { responses: { 200: { description: 'OK' } } } };
    }
    const document = { openapi: '3.1.0', info: { title: 'DPoP', version: '1.0.0' }, paths };
    return Promise.resolve(documentExpress(app, document) as unknown as Described);
  },
};

/** The parts of a description that vouch derives: schemes, and each operation's security. */
function derived(document: Described): unknown {
  const operations: Record<string, unknown> = {};
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const errors = Object.entries(operation.responses).filter(([status]) => status !== '200');
      operations[`${method} ${path}`] = { security: operation.security, errors };
    }
  }
  return { schemes: document.components.securitySchemes, operations };
}

describe('sender-constrained schemes in the description (issue #28, contract §8)', () => {
  const seen = new Map<string, unknown>();

  for (const [engine, describeApi] of Object.entries(engines)) {
    it(`on ${engine}: the schemes, each operation's security and statuses, a valid 3.1 document`, async (t) => {
      const document = await describeApi(t);
      assert.deepEqual(document.components.securitySchemes, {
        dpopAuth: { type: 'http', scheme: 'DPoP' },
        bearerAuth: { type: 'http', scheme: 'bearer' },
        mutualTLS: { type: 'mutualTLS' },
      });
      for (const [operation, [security, errors]] of Object.entries(expected)) {
        const [method, path] = operation.split(' ') as [string, string];
        const op = document.paths[path]?.[method];
        assert.ok(op, `${operation} is documented`);
        assert.deepEqual(op.security, security, `${operation} security`);
        const statuses = Object.keys(op.responses).filter((status) => status !== '200');
        assert.deepEqual(statuses, errors, `${operation} responses`);
      }
      const result = await new Validator().validate(document as unknown as Record<string, unknown>);
      assert.equal(result.valid, true, JSON.stringify(result.errors));
      seen.set(engine, derived(document));
    });
  }

  it('documents DPoP refusals from its own challenges, as Bearer ones are', async (t) => {
    const op = (await engines['fastify']!(t)).paths['/dpop-scoped']!['get']!;
    const [unauthorized, ambiguous, forbidden] = [
      op.responses['401']!,
      op.responses['400']!,
      op.responses['403']!,
    ];
    assert.equal(
      unauthorized.headers?.['WWW-Authenticate']?.description,
      `One line per authenticator tried, among: \`${dpop.challenge('api', false)}\``,
    );
    assert.equal(
      ambiguous.description,
      'Bad Request: a credential was sent more than once, or by two methods (ambiguous credentials)',
    );
    assert.equal(
      ambiguous.headers?.['WWW-Authenticate']?.description,
      `On an ambiguous credential: \`${dpop.badRequestChallenge('api')}\``,
    );
    assert.equal(forbidden.description, 'Forbidden: the credential does not grant pets:read');
    assert.equal(
      forbidden.headers?.['WWW-Authenticate']?.description,
      `On a lack of scope: \`${dpop.scopeChallenge('api', ['pets:read'])}\``,
    );
    assert.match(dpop.challenge('api', false), /^DPoP /);
  });

  it('gives a certificate route a 401 and 403 without a challenge: none is sent in HTTP', async (t) => {
    const op = (await engines['fastify']!(t)).paths['/certificate-scoped']!['get']!;
    assert.equal(op.responses['401']!.headers, undefined);
    assert.equal(op.responses['403']!.headers, undefined);
  });

  it('derives the same schemes, security and error responses on every engine', () => {
    assert.equal(seen.size, 3, 'every engine described the API');
    const [first, ...others] = [...seen.values()];
    for (const other of others) assert.deepEqual(other, first);
  });
});
