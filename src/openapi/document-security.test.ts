import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpBearer, resolveAuth } from '../index.js';
import { fillDocument, samplePath, type OperationAuthOf } from './document-security.js';

const bearer = new HttpBearer({ tokens: new Map([['t', 'ann']]) });
const protectedEverywhere: OperationAuthOf = () => ({
  requirements: resolveAuth(bearer, 'test'),
  csrf: false,
  realm: 'api',
});

describe('fillDocument', () => {
  it('asks about each operation with a concrete path, its method in upper case', () => {
    const asked: string[] = [];
    fillDocument(
      { paths: { '/pets/{id}/toys/{toy}': { get: {}, delete: {}, summary: 'not an operation' } } },
      (method, path) => {
        asked.push(`${method} ${path}`);
        return undefined;
      },
    );
    assert.deepEqual(asked, ['GET /pets/0/toys/0', 'DELETE /pets/0/toys/0']);
  });

  it('fills operations without responses, and skips path items left undefined', () => {
    const document = fillDocument(
      { paths: { '/a': { get: {} }, '/b': undefined } },
      protectedEverywhere,
    );
    const operation = document.paths['/a'].get as { security: unknown; responses: object };
    assert.deepEqual(operation.security, [{ bearerAuth: [] }]);
    assert.deepEqual(Object.keys(operation.responses), ['400', '401']);
    assert.equal(document.paths['/b'], undefined);
  });

  it('leaves a document without paths as it was, copied', () => {
    const given = { openapi: '3.1.0', info: { title: 't', version: '1' } };
    const document = fillDocument(given, protectedEverywhere);
    assert.deepEqual(document, given);
    assert.notEqual(document, given);
  });
});

describe('samplePath', () => {
  it('stands one segment in for each parameter, and keeps the rest', () => {
    assert.equal(samplePath('/pets/{petId}/x{y}'), '/pets/0/x0');
    assert.equal(samplePath('/plain'), '/plain');
  });
});
