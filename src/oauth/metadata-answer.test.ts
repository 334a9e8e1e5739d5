import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { OperationAuth } from '../core/operation-auth.js';
import { DPoPBearer } from '../dpop/dpop-bearer.js';
import { HttpBearer } from '../http/http-bearer.js';
import { JwtBearer } from '../jwt/jwt-bearer.js';
import { metadataBody } from './metadata-answer.js';
import { protectedResource } from './protected-resource.js';

const api = protectedResource({
  resource: 'https://api.example/mcp',
  authorizationServers: ['https://login.example'],
});
const jwt = new JwtBearer({
  resource: api,
  issuers: [{ issuer: 'https://login.example', keys: { keys: [] } }],
  algorithms: ['RS256'],
});
const dpop = new DPoPBearer({ tokens: jwt, algorithms: ['ES256', 'EdDSA'] });
const otherApi = protectedResource({
  resource: 'https://other.example/',
  authorizationServers: ['https://login.example'],
});
const otherDpop = new DPoPBearer({
  tokens: new JwtBearer({
    resource: otherApi,
    issuers: [{ issuer: 'https://login.example', keys: { keys: [] } }],
    algorithms: ['RS256'],
  }),
  algorithms: ['PS256'],
});
const plain = new HttpBearer({ authenticate: () => ({ user: 'ann' }) });

const operation = (scopes: string[], ...requirements: OperationAuth['requirements'][]) => ({
  requirements: requirements.flatMap((requirement) => requirement ?? []),
  csrf: false,
  scopes,
});
const metadata = (...operations: OperationAuth[]) =>
  JSON.parse(metadataBody(api, operations)) as Record<string, unknown>;

describe('metadataBody (RFC 9728 §2)', () => {
  it('lists the scopes of the operations its authenticators take part in, and no DPoP member', () => {
    const body = metadata(
      operation(['mcp:tools'], [[jwt]]),
      operation(['mcp:admin'], [[plain], [jwt]]),
      operation(['other:scope'], [[plain]]),
      { requirements: null, csrf: false },
    );
    assert.deepEqual(body['scopes_supported'], ['mcp:admin', 'mcp:tools']);
    assert.equal('dpop_signing_alg_values_supported' in body, false);
    assert.equal('dpop_bound_access_tokens_required' in body, false);
  });

  it('names the proof algorithms of its DPoP authenticators, not of another resource', () => {
    const body = metadata(operation([], [[dpop], [jwt]]), operation([], [[otherDpop]]));
    assert.deepEqual(body['dpop_signing_alg_values_supported'], ['ES256', 'EdDSA']);
    assert.equal(body['dpop_bound_access_tokens_required'], false, 'Bearer takes its tokens too');
  });

  it('requires DPoP-bound tokens when no operation takes its tokens otherwise', () => {
    const body = metadata(operation(['mcp:tools'], [[dpop]]), operation([], [[plain]]));
    assert.deepEqual(body['dpop_signing_alg_values_supported'], ['ES256', 'EdDSA']);
    assert.equal(body['dpop_bound_access_tokens_required'], true);
    assert.deepEqual(body['scopes_supported'], ['mcp:tools']);
  });
});
