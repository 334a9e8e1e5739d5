import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  AuthenticationError,
  AuthorizationError,
  InsufficientScopeError,
  BadRequestError,
  ConfigurationError,
  CsrfError,
  StoreUnavailableError,
  VouchError,
  errorCodes,
} from './errors.js';

describe('errors', () => {
  const table: readonly [string, () => VouchError, string, number, string][] = [
    [
      'AuthenticationError',
      () => new AuthenticationError(),
      'VOUCH_ERR_UNAUTHENTICATED',
      401,
      'Unauthorized',
    ],
    ['AuthorizationError', () => new AuthorizationError(), 'VOUCH_ERR_FORBIDDEN', 403, 'Forbidden'],
    [
      'InsufficientScopeError',
      () => new InsufficientScopeError(),
      'VOUCH_ERR_INSUFFICIENT_SCOPE',
      403,
      'Forbidden',
    ],
    ['CsrfError', () => new CsrfError(), 'VOUCH_ERR_CSRF', 403, 'CSRF check Failed'],
    ['BadRequestError', () => new BadRequestError(), 'VOUCH_ERR_BAD_REQUEST', 400, 'Bad Request'],
    [
      'StoreUnavailableError',
      () => new StoreUnavailableError(),
      'VOUCH_ERR_STORE_UNAVAILABLE',
      503,
      'Service Unavailable',
    ],
    [
      'ConfigurationError',
      () => new ConfigurationError('GET /x: bad'),
      'VOUCH_ERR_CONFIGURATION',
      500,
      'GET /x: bad',
    ],
  ];

  for (const [name, make, code, status, detail] of table) {
    it(`${name}: ${code}, ${status}`, () => {
      const error = make();
      assert.ok(error instanceof VouchError);
      assert.ok(error instanceof Error);
      assert.equal(error.code, code);
      assert.equal(error.statusCode, status);
      assert.equal(error.name, name);
      // The default message is the reply's `detail` (the contract's bodies).
      assert.equal(error.message, detail);
      assert.ok(error.stack?.includes(name));
    });
  }

  it('takes a custom message and a cause', () => {
    const cause = new Error('root');
    const error = new AuthenticationError('token expired', { cause });
    assert.equal(error.message, 'token expired');
    assert.equal(error.cause, cause);
    assert.equal(error.code, 'VOUCH_ERR_UNAUTHENTICATED');
  });

  it('StoreUnavailableError carries Retry-After seconds (default 5)', () => {
    assert.equal(new StoreUnavailableError().retryAfter, 5);
    const cause = new Error('ECONNREFUSED');
    const error = new StoreUnavailableError('down', { retryAfter: 30, cause });
    assert.equal(error.retryAfter, 30);
    assert.equal(error.cause, cause);
    assert.equal(error.statusCode, 503);
  });

  it('subclasses are names of their own, for user subclasses too', () => {
    class TokenRevoked extends AuthenticationError {}
    const error = new TokenRevoked('revoked');
    assert.equal(error.name, 'TokenRevoked');
    assert.equal(error.code, 'VOUCH_ERR_UNAUTHENTICATED');
    assert.ok(error instanceof AuthenticationError);
  });

  it('errorCodes lists every code once, matching the classes', () => {
    const codes = Object.values(errorCodes);
    assert.equal(new Set(codes).size, codes.length);
    assert.deepEqual([...codes].sort(), table.map(([, , code]) => code).sort());
    for (const code of codes) assert.match(code, /^VOUCH_ERR_[A-Z_]+$/);
  });

  it('InsufficientScopeError names the scopes a step-up needs, each once', () => {
    const bare = new InsufficientScopeError();
    assert.deepEqual([bare.message, bare.scopes], ['Forbidden', []]);
    const stepUp = new InsufficientScopeError({ scopes: ['mcp:admin', 'mcp:admin', 'a'] });
    assert.deepEqual([stepUp.message, stepUp.scopes], ['Forbidden', ['mcp:admin', 'a']]);
    const cause = new Error('why');
    const told = new InsufficientScopeError('Admins only', { scopes: ['mcp:admin'], cause });
    assert.deepEqual(
      [told.message, told.scopes, told.cause],
      ['Admins only', ['mcp:admin'], cause],
    );
    // A scope that no challenge could carry is a programming error, caught where it is made.
    for (const scopes of [['two words'], ['quo"te'], [''], [42]]) {
      assert.throws(
        () => new InsufficientScopeError({ scopes: scopes as string[] }),
        (error) => error instanceof TypeError && /scope-token/.test(error.message),
      );
    }
  });

  it('VouchError can be constructed directly', () => {
    const error = new VouchError('VOUCH_ERR_X', 418, 'teapot');
    assert.equal(error.name, 'VouchError');
    assert.equal(error.statusCode, 418);
  });
});
