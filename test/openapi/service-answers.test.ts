// Every operation of the illustrated service's served description, called over a real socket
// as the description says (its security, parameters and body), and again without credentials
// and without body fields: each answer's status is documented for the operation, and the answer
// is in the documented media type, its body valid against the documented schema (or empty where
// no content is documented).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import {
  operations,
  presentCredentials,
  sampleBody,
  samplePath,
  startDescribedService,
  type Operation,
} from './described-service.js';

// OpenAPI 3.1 schemas are JSON Schema 2020-12; OpenAPI's own keywords are not Ajv's business.
const ajv = new Ajv2020({ strict: false, allErrors: true });

/** Fails unless the answer is documented: its status, its media type, its body's schema. */
function checkAnswer(operation: Operation, status: number, type: string | null, body: string) {
  const where = `${operation.operationId} answered ${status}`;
  const documented =
    operation.responses[String(status)] ??
    operation.responses[`${String(status)[0]}XX`] ??
    operation.responses['default'];
  assert.ok(documented, `${where}, which it does not document: ${body}`);
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
  const validate = ajv.compile(schema);
  assert.ok(
    validate(value),
    `${where}: ${body} is not as documented: ${ajv.errorsText(validate.errors)}`,
  );
}

test('every answer of the service is documented, in its documented media type', async (t) => {
  const described = await startDescribedService(t);
  const all = operations(described.description);
  assert.ok(all.length >= 16, `the description lists ${all.length} operations`);

  for (const { method, path, operation } of all) {
    // One call per way of authenticating (each requirement object), or one without any.
    const requirements = (operation.security ?? []).length > 0 ? operation.security! : [{}];
    for (const requirement of requirements) {
      const schemes = Object.keys(requirement).join(' + ') || 'no credential';
      await t.test(`${method.toUpperCase()} ${path} with ${schemes}`, async () => {
        const url = new URL(described.service.base + samplePath(path, operation));
        const headers = new Headers();
        await presentCredentials(described, { url, headers }, method, requirement);
        const body = sampleBody(described, operation);
        if (body !== undefined) headers.set('content-type', body.type);
        const response = await fetch(url, { method, headers, body: body?.body ?? null });
        const text = await response.text();
        assert.ok(response.ok, `${operation.operationId} answered ${response.status}: ${text}`);
        checkAnswer(operation, response.status, response.headers.get('content-type'), text);
      });
    }

    await t.test(`${method.toUpperCase()} ${path} without credentials or fields`, async () => {
      const url = new URL(described.service.base + samplePath(path, operation));
      const body = sampleBody(described, operation, false);
      const headers = new Headers();
      if (body !== undefined) headers.set('content-type', body.type);
      const response = await fetch(url, { method, headers, body: body?.body ?? null });
      const text = await response.text();
      checkAnswer(operation, response.status, response.headers.get('content-type'), text);
    });
  }
});
