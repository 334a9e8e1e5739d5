import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigurationError } from '../core/errors.js';
import { dpopNonces } from './dpop-nonces.js';

const SECRET = 'a-nonce-secret-of-32-characters!!';
const MINUTE = 60_000;

describe('dpopNonces', () => {
  it('one nonce per window, accepted from the window before its own to the one after', () => {
    const nonces = dpopNonces({ secret: SECRET, lifetime: 60 });
    const start = 100 * MINUTE;
    const nonce = nonces.issue(start);
    assert.match(nonce, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(nonces.issue(start + MINUTE - 1), nonce, 'the same all window long');
    assert.notEqual(nonces.issue(start + MINUTE), nonce, 'a new one in the next');
    for (const at of [start - MINUTE, start, start + MINUTE, start + 2 * MINUTE - 1]) {
      assert.equal(nonces.accepts(nonce, at), true, String(at - start));
    }
    for (const at of [start - MINUTE - 1, start + 2 * MINUTE]) {
      assert.equal(nonces.accepts(nonce, at), false, String(at - start));
    }
  });

  it('instances sharing a secret agree; another secret, or a forged nonce, is refused', () => {
    const now = Date.now();
    const one = dpopNonces({ secret: SECRET });
    const two = dpopNonces({ secret: new TextEncoder().encode(SECRET) });
    const other = dpopNonces({ secret: `${SECRET}-other` });
    assert.equal(two.accepts(one.issue(now), now), true);
    assert.equal(other.accepts(one.issue(now), now), false);
    for (const forged of ['', 'x', one.issue(now).slice(1), `${one.issue(now)}=`]) {
      assert.equal(one.accepts(forged, now), false, forged);
    }
  });

  it('keeps its own copy of a secret given as bytes', () => {
    const bytes = new TextEncoder().encode(SECRET);
    const nonces = dpopNonces({ secret: bytes });
    const before = nonces.issue(0);
    bytes.fill(0);
    assert.equal(dpopNonces({ secret: SECRET }).issue(0), before);
  });

  it('refuses a short or missing secret, and a lifetime that is not a whole number above 0', () => {
    const bad: unknown[] = [
      { secret: 'short' },
      { secret: new Uint8Array(31) },
      { secret: 42 },
      {},
      { secret: SECRET, lifetime: 0 },
      { secret: SECRET, lifetime: 1.5 },
    ];
    for (const options of bad) {
      assert.throws(
        () => dpopNonces(options as never),
        ConfigurationError,
        JSON.stringify(options),
      );
    }
  });
});
