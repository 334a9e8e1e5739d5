// What an RFC 7662 answer must say for its token to be accepted. The answers are written by
// hand: most of these are what no well-behaved server sends (the real server's answers are in
// introspection-bearer.test.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { IntrospectionResponse } from './introspect-token.js';
import { judgeIntrospection, type IntrospectionExpectations } from './judge-introspection.js';

const RESOURCE = 'https://api.example.com/mcp';
const ISSUER = 'https://login.example.com';
const NOW = 1_800_000_000_000;
const seconds = (offset: number) => NOW / 1000 + offset;

const strict: IntrospectionExpectations = {
  audience: { exactly: RESOURCE },
  issuers: [ISSUER],
  clockTolerance: 5,
};

const good = {
  active: true,
  scope: 'mcp:tools',
  client_id: 'app',
  token_type: 'Bearer',
  iss: ISSUER,
  aud: RESOURCE,
  iat: seconds(-10),
  exp: seconds(60),
};

function judge(
  changes: Record<string, unknown>,
  expected: IntrospectionExpectations = strict,
): boolean {
  const answer = Object.fromEntries(
    Object.entries<unknown>({ ...good, ...changes }).filter(([, value]) => value !== undefined),
  ) as IntrospectionResponse;
  return judgeIntrospection(answer, expected, NOW);
}

describe('judgeIntrospection', () => {
  it('accepts an active Bearer token for the resource, from a trusted issuer, in its time', () => {
    assert.equal(judge({}), true);
    assert.equal(judge({ aud: [RESOURCE] }), true, 'one audience, in a list');
    assert.equal(judge({ token_type: 'bearer' }), true, 'RFC 6749 §5.1: case-insensitive');
    for (const absent of ['token_type', 'iss', 'exp', 'scope']) {
      assert.equal(judge({ [absent]: undefined }), true, `without ${absent}`);
    }
    assert.equal(judge({ exp: seconds(-4) }), true, 'expired within the clock tolerance');
    assert.equal(judge({ nbf: seconds(4) }), true, 'not before, within the clock tolerance');
  });

  const refused: readonly [string, Record<string, unknown>][] = [
    ['RFC 7662 §2.2: not active', { active: false }],
    ['RFC 7662 §2.2: active not exactly true', { active: 'true' }],
    ['expired beyond the tolerance', { exp: seconds(-5) }],
    ['not valid before, beyond the tolerance', { nbf: seconds(6) }],
    ['exp not a number', { exp: String(seconds(60)) }],
    ['nbf not a number', { nbf: null }],
    ['from an untrusted issuer', { iss: 'https://evil.example.com' }],
    ['iss not a string', { iss: [ISSUER] }],
    ['RFC 8707: for another resource', { aud: 'https://other.example.com/' }],
    ['RFC 8707: for the resource and another', { aud: [RESOURCE, 'https://other.example.com/'] }],
    ['RFC 8707: the resource twice', { aud: [RESOURCE, RESOURCE] }],
    ['without an audience', { aud: undefined }],
    ['RFC 9449: a DPoP token sent as Bearer', { token_type: 'DPoP' }],
    ['RFC 9449: a DPoP token naming no key', { token_type: 'DPoP', cnf: { 'x5t#S256': 'abc' } }],
    ['a token type not a string', { token_type: 1 }],
    ['another token type', { token_type: 'N_A' }],
    ['scope not a string', { scope: ['mcp:tools'] }],
  ];
  it('leaves a binding to be proved by each request, and accepts a DPoP token naming its key', () => {
    assert.equal(judge({ cnf: { jkt: 'abc' } }), true);
    assert.equal(judge({ cnf: { 'x5t#S256': 'abc' } }), true);
    assert.equal(judge({ token_type: 'dpop', cnf: { jkt: 'abc' } }), true);
  });

  for (const [what, changes] of refused) {
    it(`refuses: ${what}`, () => {
      assert.equal(judge(changes), false);
    });
  }

  it('without a resource, wants one of the audiences among the token’s', () => {
    const anyOf: IntrospectionExpectations = { ...strict, audience: { anyOf: ['a', 'b'] } };
    assert.equal(judge({ aud: ['x', 'b'] }, anyOf), true);
    assert.equal(judge({ aud: 'a' }, anyOf), true);
    assert.equal(judge({ aud: ['x', 'y'] }, anyOf), false);
    assert.equal(judge({ aud: undefined }, anyOf), false);
    assert.equal(judge({ aud: [1] }, anyOf), false);
  });

  it('checks no audience or issuer when told to accept any, deliberately', () => {
    const loose: IntrospectionExpectations = {
      audience: undefined,
      issuers: undefined,
      clockTolerance: 0,
    };
    assert.equal(judge({ aud: undefined, iss: 'https://anyone.example.com' }, loose), true);
    assert.equal(judge({ iss: 42 }, loose), false, 'iss must still be a string');
    assert.equal(judge({ token_type: 'DPoP' }, loose), false, 'a DPoP token names its key');
  });
});
