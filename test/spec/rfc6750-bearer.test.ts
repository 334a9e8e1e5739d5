// RFC 6750 (Bearer Token Usage) as the contract applies it: §2.1 header field and b64token
// grammar, §2 one method per request, §3 WWW-Authenticate challenge with realm and
// error="invalid_token" (error="invalid_request" on a 400).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveAuth } from '../../src/core/auth-spec.js';
import { authenticate } from '../../src/core/authenticate.js';
import type { Authenticator } from '../../src/core/authenticator.js';
import type { RequestView } from '../../src/core/request.js';
import { HttpBearer } from '../../src/http/http-bearer.js';
import { OAuth2PasswordBearer } from '../../src/http/oauth2-password-bearer.js';
import { JwtBearer } from '../../src/jwt/index.js';
import { AUDIENCE, ISSUER, sign, testKey } from '../helpers/jwt.js';

const request = (authorization?: string, url = '/resource'): RequestView => ({
  method: 'GET',
  url,
  headers: authorization === undefined ? {} : { authorization },
  raw: { rawHeaders: authorization === undefined ? [] : ['Authorization', authorization] },
});

/** A bearer whose hook accepts every token it is shown, and remembers them. */
function bearer(options: { realm?: string } = {}) {
  const seen: string[] = [];
  const auth = new HttpBearer({
    ...options,
    authenticate: (_request, token) => {
      seen.push(token);
      return token.startsWith('good') ? { token } : undefined;
    },
  });
  return { auth, seen };
}

async function challengesFor(authorization?: string, realm = 'api'): Promise<readonly string[]> {
  const { auth } = bearer();
  const result = await authenticate(resolveAuth(auth, 'GET /resource')!, request(authorization), {
    realm,
  });
  assert.equal(result.ok, false);
  return result.challenges;
}

describe('RFC 6750 §2.1: Authorization request header field', () => {
  it('accepts the RFC example token', async () => {
    const { auth, seen } = bearer();
    await auth.verify(request('Bearer mF_9.B5f-4.1JqM'));
    assert.deepEqual(seen, ['mF_9.B5f-4.1JqM']);
  });

  describe('b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="', () => {
    const valid = [
      'goodABCDEFGHIJKLMNOPQRSTUVWXYZ',
      'goodabcdefghijklmnopqrstuvwxyz',
      'good0123456789',
      'good-._~+/',
      'good=',
      'good==',
      'good===',
      'good/+/+',
    ];
    for (const token of valid) {
      it(`hands ${JSON.stringify(token)} to the hook`, async () => {
        const { auth, seen } = bearer();
        assert.equal((await auth.verify(request(`Bearer ${token}`))).state, 'accepted');
        assert.deepEqual(seen, [token]);
      });
    }

    const invalid = [
      ['"=" before the end', 'good=x'],
      ['only "="', '='],
      ['a space inside', 'good token'],
      ['a comma', 'good,x'],
      ['a quoted string', '"good"'],
      ['an auth-param', 'token="good"'],
      ['a colon', 'good:x'],
      ['a percent sign', 'good%20'],
      ['a semicolon', 'good;x'],
      ['a backslash', 'good\\x'],
      ['a non-ASCII letter', 'goodé'],
      ['a trailing space', 'good '],
      ['a control character', 'good\u0001'],
    ] as const;
    for (const [label, token] of invalid) {
      it(`refuses ${label} without calling the hook`, async () => {
        const { auth, seen } = bearer();
        assert.equal((await auth.verify(request(`Bearer ${token}`))).state, 'rejected');
        assert.deepEqual(seen, []);
      });
    }
  });

  describe('the scheme word matches case-insensitively (RFC 9110 §11.1)', () => {
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
      it(scheme, async () => {
        const { auth } = bearer();
        assert.equal((await auth.verify(request(`${scheme} good`))).state, 'accepted');
      });
    }
    for (const scheme of ['Bearer:', 'Bearers', 'Bear', 'Token', 'JWT']) {
      it(`${scheme} is another scheme (absent)`, async () => {
        const { auth, seen } = bearer();
        assert.equal((await auth.verify(request(`${scheme} good`))).state, 'absent');
        assert.deepEqual(seen, []);
      });
    }
  });

  it('reads only the Authorization header: access_token in the query is not a credential', async () => {
    const { auth, seen } = bearer();
    assert.equal(
      (await auth.verify(request(undefined, '/resource?access_token=good'))).state,
      'absent',
    );
    assert.deepEqual(seen, []);
  });
});

describe('RFC 6750 §2: "Clients MUST NOT use more than one method to transmit the token in each request"', () => {
  it('a token in the header and access_token in the query: ambiguous, the hook not called', async () => {
    const { auth, seen } = bearer();
    for (const url of [
      '/resource?access_token=good',
      '/resource?page=2&access_token=other',
      '/resource?access_token=good&access_token=good',
      '/resource?acc%65ss_token=good', // the name is decoded as the URL standard says
      '/resource?access_token=%20',
    ]) {
      assert.equal((await auth.verify(request('Bearer good', url))).state, 'ambiguous', url);
    }
    assert.deepEqual(seen, []);
  });

  it('whatever the header token is worth: malformed or oversized, it was still sent', async () => {
    const { auth } = bearer();
    for (const header of ['Bearer a,b', `Bearer ${'a'.repeat(5000)}`, 'Bearer\tgood']) {
      const url = '/resource?access_token=good';
      assert.equal((await auth.verify(request(header, url))).state, 'ambiguous', header);
    }
  });

  it('static tokens too, whose header is compared whole', async () => {
    const auth = new HttpBearer({ tokens: new Map([['good', 'ann']]) });
    assert.equal((await auth.verify(request('Bearer good'))).state, 'accepted');
    const both = request('Bearer good', '/resource?access_token=good');
    assert.equal((await auth.verify(both)).state, 'ambiguous');
  });

  it('an empty access_token carries no token: one method, the header decides', async () => {
    const { auth, seen } = bearer();
    for (const url of [
      '/resource?access_token=',
      '/resource?access_token',
      '/resource?#access_token=x',
    ]) {
      assert.equal((await auth.verify(request('Bearer good', url))).state, 'accepted', url);
    }
    assert.deepEqual(seen, ['good', 'good', 'good']);
  });

  it('without a Bearer credential in the header, access_token is neither read nor refused', async () => {
    const { auth } = bearer();
    const url = '/resource?access_token=good';
    for (const header of [undefined, 'Basic dXNlcjpwYXNz', 'Bearer']) {
      assert.equal((await auth.verify(request(header, url))).state, 'absent', String(header));
    }
  });

  it('§3.1 invalid_request: answered 400 with error="invalid_request", as two Authorization lines', async () => {
    const { auth } = bearer();
    const twoMethods = request('Bearer good', '/resource?access_token=good');
    const twoLines: RequestView = {
      method: 'GET',
      url: '/resource',
      headers: { authorization: 'Bearer good' },
      raw: { rawHeaders: ['Authorization', 'Bearer good', 'Authorization', 'Bearer good'] },
    };
    for (const sent of [twoMethods, twoLines]) {
      const result = await authenticate(resolveAuth(auth, 'GET /resource')!, sent, {
        realm: 'api',
      });
      assert.ok(!result.ok);
      assert.equal((result.error as { code?: string }).code, 'VOUCH_ERR_BAD_REQUEST');
      assert.equal((result.error as { statusCode?: number }).statusCode, 400);
      assert.deepEqual(result.challenges, ['Bearer realm="api", error="invalid_request"']);
    }
  });

  it('holds for OAuth2PasswordBearer and JwtBearer, built on HttpBearer', async () => {
    const key = await testKey('ES256');
    const jwt = await sign(key);
    const kinds: [Authenticator, string][] = [
      [
        new OAuth2PasswordBearer({ tokenUrl: '/token', authenticate: (_r, token) => token }),
        'good',
      ],
      [
        new JwtBearer({
          keys: key.publicKey,
          algorithms: ['ES256'],
          issuer: ISSUER,
          audience: AUDIENCE,
        }),
        jwt,
      ],
    ];
    for (const [auth, token] of kinds) {
      const name = auth.constructor.name;
      assert.equal((await auth.verify(request(`Bearer ${token}`))).state, 'accepted', name);
      const both = request(`Bearer ${token}`, `/resource?access_token=${token}`);
      assert.equal((await auth.verify(both)).state, 'ambiguous', name);
    }
  });
});

describe('RFC 6750 §3: the WWW-Authenticate challenge', () => {
  it('names the realm when no token was presented, without an error code', async () => {
    assert.deepEqual(await challengesFor(), ['Bearer realm="api"']);
  });

  it('has no error code when another scheme was presented', async () => {
    assert.deepEqual(await challengesFor('Basic dXNlcjpwYXNz'), ['Bearer realm="api"']);
  });

  it('has no error code for an empty Bearer credential', async () => {
    assert.deepEqual(await challengesFor('Bearer'), ['Bearer realm="api"']);
  });

  it('adds error="invalid_token" when a token was presented and the hook rejected it', async () => {
    assert.deepEqual(await challengesFor('Bearer expired'), [
      'Bearer realm="api", error="invalid_token"',
    ]);
  });

  it('adds error="invalid_token" for a malformed or oversized token too', async () => {
    assert.deepEqual(await challengesFor('Bearer a,b'), [
      'Bearer realm="api", error="invalid_token"',
    ]);
    assert.deepEqual(await challengesFor(`Bearer ${'a'.repeat(5000)}`), [
      'Bearer realm="api", error="invalid_token"',
    ]);
  });

  it('uses the configured realm, the authenticator’s own first', async () => {
    assert.deepEqual(await challengesFor(undefined, 'example'), ['Bearer realm="example"']);
    const { auth } = bearer({ realm: 'tokens' });
    const result = await authenticate(resolveAuth(auth, 'GET /r')!, request(), { realm: 'api' });
    assert.ok(!result.ok);
    assert.deepEqual(result.challenges, ['Bearer realm="tokens"']);
  });
});
