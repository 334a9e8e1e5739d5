import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { confirms } from './confirmation.js';

const jkt = 'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs';
const x5tS256 = 'bwcK0esc3ACC3DB2Y5_lESsXE8o9ltc05O89jdN-dg2';

describe('confirms', () => {
  it('lets a plain Bearer token through, but not with a DPoP proof', () => {
    assert.equal(confirms(undefined), true);
    assert.equal(confirms(undefined, { x5tS256 }), true);
    assert.equal(confirms(undefined, { jkt }), false);
  });

  it('needs a DPoP-bound token proved by the same key', () => {
    assert.equal(confirms({ jkt }, { jkt }), true);
    assert.equal(confirms({ jkt }, { jkt: x5tS256 }), false);
    assert.equal(confirms({ jkt }), false, 'sent as Bearer: no downgrade');
    assert.equal(confirms({ jkt }, { x5tS256 }), false);
  });

  it('needs a certificate-bound token to come with that certificate', () => {
    assert.equal(confirms({ 'x5t#S256': x5tS256 }, { x5tS256 }), true);
    assert.equal(confirms({ 'x5t#S256': x5tS256 }, { x5tS256: jkt }), false);
    assert.equal(confirms({ 'x5t#S256': x5tS256 }), false);
    assert.equal(confirms({ 'x5t#S256': x5tS256 }, { jkt, x5tS256 }), false, 'no jkt in cnf');
  });

  it('needs every member of a token bound twice', () => {
    const both = { jkt, 'x5t#S256': x5tS256 };
    assert.equal(confirms(both, { jkt, x5tS256 }), true);
    assert.equal(confirms(both, { jkt }), false);
    assert.equal(confirms(both, { x5tS256 }), false);
  });

  it('refuses what it cannot check', () => {
    for (const cnf of [
      null,
      'jkt',
      [jkt],
      {},
      { jwk: { kty: 'EC' } },
      { jkt: 1 },
      { jkt, kid: 'a' },
    ]) {
      assert.equal(confirms(cnf, { jkt, x5tS256 }), false, JSON.stringify(cnf));
    }
    assert.equal(confirms(Object.create({ jkt }) as object, { jkt }), false, 'inherited member');
  });
});
