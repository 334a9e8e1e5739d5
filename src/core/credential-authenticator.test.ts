import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_MAX_CREDENTIAL_LENGTH } from './authenticator.js';
import { CredentialAuthenticator } from './credential-authenticator.js';
import {
  ABSENT,
  AMBIGUOUS,
  REJECTED,
  type Awaitable,
  type Extraction,
  type Nothing,
} from './outcome.js';
import type { AuthRequest, RequestView } from './request.js';
import type { SecurityScheme } from './security-scheme.js';
import { APIKeyCookie } from '../api-key/api-key-cookie.js';
import { APIKeyHeader } from '../api-key/api-key-header.js';
import { APIKeyQuery } from '../api-key/api-key-query.js';
import { HttpBasic } from '../http/http-basic.js';
import { HttpBearer } from '../http/http-bearer.js';
import { OAuth2PasswordBearer } from '../http/oauth2-password-bearer.js';
import { JwtBearer } from '../jwt/jwt-bearer.js';
import { MemorySessionStore } from '../session/memory-session-store.js';
import { SessionAuth } from '../session/session-auth.js';

/** Extracts whatever it is told; its hook returns what it is told, counting calls. */
class Scripted extends CredentialAuthenticator<string, unknown> {
  calls: string[] = [];
  constructor(
    readonly found: Extraction<string>,
    readonly result: Awaitable<unknown>,
  ) {
    super('scripted');
  }
  override get securityScheme(): SecurityScheme | undefined {
    return undefined;
  }
  protected override extract(): Extraction<string> {
    return this.found;
  }
  protected override invoke(_request: AuthRequest, credential: string): Awaitable<unknown> {
    this.calls.push(credential);
    return this.result;
  }
}

class Bound extends Scripted {
  protected override csrfBinding(credential: string): string {
    return `bound:${credential}`;
  }
}

const request: RequestView = { method: 'GET', url: '/', headers: {} };

describe('CredentialAuthenticator', () => {
  it('defaults the credential limit to 4 KiB', () => {
    assert.equal(DEFAULT_MAX_CREDENTIAL_LENGTH, 4096);
  });

  it('reads a credential, so a request sending it twice answers 400', () => {
    assert.equal(new Scripted(ABSENT, 'user').readsCredential, true);
  });

  for (const found of [ABSENT, REJECTED, AMBIGUOUS]) {
    it(`passes ${found.state} through without calling the hook`, async () => {
      const auth = new Scripted(found, 'user');
      assert.equal(await auth.verify(request), found);
      assert.deepEqual(auth.calls, []);
    });
  }

  it('calls the hook with a present credential and judges its awaited result', async () => {
    const present = { state: 'present', credential: 'c' } as const;
    const nothing: readonly Nothing[] = [undefined, null, false];
    for (const result of nothing) {
      assert.equal(await new Scripted(present, Promise.resolve(result)).verify(request), REJECTED);
    }
    const auth = new Scripted(present, Promise.resolve(0));
    assert.deepEqual(await auth.verify(request), { state: 'accepted', value: 0 });
    assert.deepEqual(auth.calls, ['c']);
  });

  it('adds a CSRF binding only when the kind names one', async () => {
    const present = { state: 'present', credential: 'c' } as const;
    assert.deepEqual(await new Bound(present, 'u').verify(request), {
      state: 'accepted',
      value: 'u',
      csrfBinding: 'bound:c',
    });
    assert.equal(await new Bound(present, undefined).verify(request), REJECTED);
  });
});

describe('the built-in kinds', () => {
  const hook = () => 'user';
  const kinds = [
    new HttpBearer({ authenticate: hook }),
    new OAuth2PasswordBearer({ tokenUrl: '/token', authenticate: hook }),
    new JwtBearer({ keys: { keys: [] }, algorithms: ['RS256'], issuer: 'i', audience: 'a' }),
    new HttpBasic({ authenticate: hook }),
    new APIKeyQuery({ authenticate: hook }),
    new APIKeyHeader({ authenticate: hook }),
    new APIKeyCookie({ authenticate: hook }),
    new SessionAuth({ store: new MemorySessionStore() }),
  ];
  for (const kind of kinds) {
    it(`${kind.constructor.name} verifies on the one path, stating only its own steps`, () => {
      assert.ok(kind instanceof CredentialAuthenticator);
      let owner: unknown = Object.getPrototypeOf(kind);
      while (!Object.hasOwn(owner as object, 'verify')) owner = Object.getPrototypeOf(owner);
      assert.equal(owner, CredentialAuthenticator.prototype, 'the class whose verify() it runs');
    });
  }
});
