// Every operation of the illustrated service's served description, called over a real socket
// as the description says (its security, parameters and body), and again without credentials
// and without body fields, and again with its database cut off: each answer's status is
// documented for the operation, and the answer is in the documented media type, its body valid
// against the documented schema (or empty where no content is documented), its Retry-After
// present exactly where documented.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { postgresDatabase } from '../../helpers/services.js';
import { tcpProxy } from '../../helpers/tcp-proxy.js';
import {
  operations,
  presentCredentials,
  sampleBody,
  samplePath,
  startDescribedService,
  type DescribedService,
  type Operation,
} from './described-service.js';

// OpenAPI 3.1 schemas are JSON Schema 2020-12; OpenAPI's own keywords are not Ajv's business.
const ajv = new Ajv2020({ strict: false, allErrors: true });

/** Fails unless `value` is valid against `schema`. */
function assertValid(schema: object, value: unknown, message: string): void {
  const validate = ajv.compile(schema);
  assert.ok(validate(value), `${message}: ${ajv.errorsText(validate.errors)}`);
}

/**
 * Fails unless the answer is documented: its status, its media type, its body's schema, and its
 * `Retry-After`, which it carries exactly where documented (RFC 9110 §10.2.3: a whole number of
 * seconds, as its schema says).
 */
function checkAnswer(operation: Operation, response: Response, body: string) {
  const { status } = response;
  const where = `${operation.operationId} answered ${status}`;
  const documented =
    operation.responses[String(status)] ??
    operation.responses[`${String(status)[0]}XX`] ??
    operation.responses['default'];
  assert.ok(documented, `${where}, which it does not document: ${body}`);

  // Header names are compared without case (RFC 9110 §5.1).
  const header = Object.entries(documented.headers ?? {}).find(
    ([name]) => name.toLowerCase() === 'retry-after',
  )?.[1];
  const retryAfter = response.headers.get('retry-after');
  if (header === undefined) {
    assert.equal(retryAfter, null, `${where} with a Retry-After it does not document`);
  } else {
    assert.ok(retryAfter !== null, `${where} without the Retry-After it documents`);
    const seconds = /^\d+$/.test(retryAfter) ? Number(retryAfter) : retryAfter;
    assertValid(header.schema, seconds, `${where} with Retry-After: ${retryAfter}`);
  }

  const type = response.headers.get('content-type');
  const media = Object.entries(documented.content ?? {});
  if (media.length === 0) {
    assert.equal(body, '', `${where} with a body where none is documented`);
    return;
  }
  // The media type without its parameters (charset), compared as RFC 9110 §8.3.1 says: no case.
  const essence = (type ?? '').split(';')[0]!.trim().toLowerCase();
  const found = media.find(([candidate]) => candidate.toLowerCase() === essence);
  if (found === undefined) {
    assert.fail(`${where} in ${String(type)}, documented as ${media.map(([m]) => m).join(', ')}`);
  }
  const [, { schema }] = found;
  let value: unknown = body;
  if (/^application\/(.+\+)?json$/.test(essence)) {
    assert.doesNotThrow(() => (value = JSON.parse(body)), `${where}: not JSON: ${body}`);
  }
  assertValid(schema, value, `${where}: ${body} is not as documented`);
}

/** One way to call an operation: as one of its security requirement objects, or none. */
interface Call {
  readonly name: string;
  readonly operation: Operation;
  /** Whether a credential is presented. */
  readonly credential: boolean;
  readonly url: URL;
  readonly init: RequestInit;
}

/** Each operation, once per way of authenticating (each requirement object), or once without. */
async function callsAsDescribed(described: DescribedService): Promise<Call[]> {
  const calls: Call[] = [];
  for (const { method, path, operation } of operations(described.description)) {
    const requirements = (operation.security ?? []).length > 0 ? operation.security! : [{}];
    for (const requirement of requirements) {
      const schemes = Object.keys(requirement);
      const url = new URL(described.service.base + samplePath(path, operation));
      const headers = new Headers();
      await presentCredentials(described, { url, headers }, method, requirement);
      const body = sampleBody(described, operation);
      if (body !== undefined) headers.set('content-type', body.type);
      calls.push({
        name: `${method.toUpperCase()} ${path} with ${schemes.join(' + ') || 'no credential'}`,
        operation,
        credential: schemes.length > 0,
        url,
        init: { method, headers, body: body?.body ?? null },
      });
    }
  }
  return calls;
}

test('every answer of the service is documented, in its documented media type', async (t) => {
  const described = await startDescribedService(t);
  const all = operations(described.description);
  assert.ok(all.length >= 16, `the description lists ${all.length} operations`);

  for (const { name, operation, url, init } of await callsAsDescribed(described)) {
    await t.test(name, async () => {
      const response = await fetch(url, init);
      const text = await response.text();
      assert.ok(response.ok, `${operation.operationId} answered ${response.status}: ${text}`);
      checkAnswer(operation, response, text);
    });
  }

  for (const { method, path, operation } of all) {
    await t.test(`${method.toUpperCase()} ${path} without credentials or fields`, async () => {
      const url = new URL(described.service.base + samplePath(path, operation));
      const body = sampleBody(described, operation, false);
      const headers = new Headers();
      if (body !== undefined) headers.set('content-type', body.type);
      const response = await fetch(url, { method, headers, body: body?.body ?? null });
      const text = await response.text();
      checkAnswer(operation, response, text);
    });
  }
});

test('with its database cut off, every answer of the service is still documented', async (t) => {
  const database = await postgresDatabase(t);
  if (database === undefined) return;
  // The service reaches PostgreSQL through a proxy, which the test cuts: the server stops
  // answering the service only, as if it had stopped or the network had failed.
  const server = new URL(database.url);
  const proxy = await tcpProxy(t, server.hostname, Number(server.port || 5432));
  const proxied = new URL(database.url);
  proxied.host = `127.0.0.1:${proxy.port}`;
  // Without the credential cache, every credential is looked up in the database, as a credential
  // this instance has not seen yet would be.
  const described = await startDescribedService(t, {
    databaseUrl: proxied.toString(),
    env: { CREDENTIAL_CACHE_SECONDS: '0' },
  });
  // Every call is made ready (its sessions signed in) while the database answers.
  const calls = await callsAsDescribed(described);
  proxy.cut();

  for (const { name, operation, credential, url, init } of calls) {
    await t.test(name, async () => {
      const response = await fetch(url, init);
      const text = await response.text();
      checkAnswer(operation, response, text);
      // Every credential the service describes is checked against the database: the outage is
      // what answers, not the credential.
      if (credential) assert.equal(response.status, 503, `${operation.operationId}: ${text}`);
    });
  }
});
