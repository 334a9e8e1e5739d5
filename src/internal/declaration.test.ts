import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { APIKeyCookie, HttpBearer } from '../index.js';
import { createCsrfVerifier } from '../csrf/csrf-protection.js';
import { declare } from './declaration.js';

const bearer = new HttpBearer({ authenticate: () => 'ann' });
const cookieKey = new APIKeyCookie({ paramName: 'k', authenticate: () => 'app' });
const options = { secret: 'test-secret-of-sufficient-length-0123456789', trustedOrigins: [] };
const csrf = createCsrfVerifier(options);
/** A route of the Fastify plugin: its methods are known. */
const route = (...methods: string[]) => ({
  where: `${methods.join(',')} /k`,
  methods,
  csrfOption: 'the vouch plugin csrf: { secret, trustedOrigins }',
});

describe('declare', () => {
  it('refuses cookie credentials that may meet an unsafe method without CSRF protection', () => {
    assert.throws(() => declare(cookieKey, {}), {
      code: 'VOUCH_ERR_CONFIGURATION',
      message:
        'requireAuth(): cookie-based authentication needs CSRF protection; give csrf: createCsrfVerifier({ secret, trustedOrigins }) of vouch/csrf (or csrf: false)',
    });
    assert.throws(() => declare(cookieKey, {}, route('GET', 'POST')), {
      code: 'VOUCH_ERR_CONFIGURATION',
      message:
        'GET,POST /k: cookie-based authentication needs CSRF protection; give the vouch plugin csrf: { secret, trustedOrigins } (or csrf: false)',
    });
    // Safe methods only: no check can apply, so none is needed.
    assert.equal(declare(cookieKey, {}, route('GET', 'HEAD')).protection, undefined);
    assert.equal(declare(cookieKey, { csrf: false }).protection, undefined);
  });

  it('takes a protection, and refuses its options in its place, saying what to give', () => {
    assert.equal(declare(cookieKey, { csrf }).engine.csrf, csrf.verify);
    for (const auth of [cookieKey, bearer]) {
      assert.throws(() => declare(auth, { csrf: options }), {
        code: 'VOUCH_ERR_CONFIGURATION',
        message:
          'requireAuth(): csrf takes a protection, createCsrfVerifier({ secret, trustedOrigins }) of vouch/csrf (build one and give it to every requireAuth), or false',
      });
    }
  });

  it('keeps the protection only where it can apply', () => {
    const onBearer = declare(bearer, { csrf });
    assert.equal(onBearer.protection, undefined);
    assert.equal(onBearer.engine.csrf, undefined);
    assert.equal(declare([bearer, cookieKey], { csrf }).protection, csrf);
    assert.equal(declare(cookieKey, { csrf }, route('GET')).protection, undefined);
  });

  it('marks the requirements whose answers are private', () => {
    const declaration = declare([bearer, cookieKey], { csrf });
    const [byBearer, byKey] = declaration.requirements ?? [];
    assert.equal(declaration.privateRequirements.has(byBearer!), false);
    assert.equal(declaration.privateRequirements.has(byKey!), true);
  });

  it('refuses scopes without authentication', () => {
    assert.throws(() => declare(null, { scopes: ['pets:read'] }), {
      code: 'VOUCH_ERR_CONFIGURATION',
      message: 'requireAuth(): scopes need authentication; this route has none',
    });
  });
});
