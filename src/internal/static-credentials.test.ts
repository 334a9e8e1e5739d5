import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigurationError } from '../core/errors.js';
import { secretsOrHook, StaticCredentials } from './static-credentials.js';
import type { AuthRequest } from '../core/request.js';

const none = (): undefined => undefined;

describe('StaticCredentials', () => {
  it('maps each secret to its value, from a Map or pairs', () => {
    const one = { app: 'one' };
    for (const entries of [
      new Map<string, unknown>([
        ['k1', one],
        ['k2', 2],
      ]),
      [
        ['k1', one],
        ['k2', 2],
      ] as const,
    ]) {
      const credentials = new StaticCredentials<unknown>('APIKeyHeader keys', entries, none);
      assert.equal(credentials.lookup('k1'), one);
      assert.equal(credentials.lookup('k2'), 2);
      assert.equal(credentials.lookup('k3'), undefined);
      assert.equal(credentials.lookup('k'), undefined);
    }
  });

  it('keeps values the hook rule accepts: 0, an empty string, true', () => {
    const credentials = new StaticCredentials<unknown>(
      'x',
      [
        ['a', 0],
        ['b', ''],
        ['c', true],
      ],
      none,
    );
    assert.deepEqual(
      ['a', 'b', 'c'].map((secret) => credentials.lookup(secret)),
      [0, '', true],
    );
  });

  const refused: readonly [string, Iterable<readonly [string, unknown]>, RegExp][] = [
    ['nothing', [], /give at least one secret/],
    ['an empty secret', [['', 1]], /every secret must be a non-empty string/],
    ['a number as a secret', [[7 as unknown as string, 1]], /non-empty string/],
    [
      'a secret twice',
      [
        ['dup', 1],
        ['dup', 2],
      ],
      /the secret at position 2 is given twice/,
    ],
    ['undefined as a value', [['k', undefined]], /position 1 authenticates as undefined/],
    ['null as a value', [['k', null]], /authenticates as null, which would reject it/],
    ['false as a value', [['k', false]], /authenticates as false/],
  ];
  for (const [what, entries, message] of refused) {
    it(`refuses ${what} with a ConfigurationError naming the option`, () => {
      assert.throws(
        () => new StaticCredentials('HttpBearer tokens', entries, none),
        (error: unknown) =>
          error instanceof ConfigurationError &&
          error.code === 'VOUCH_ERR_CONFIGURATION' &&
          error.message.startsWith('HttpBearer tokens: ') &&
          message.test(error.message),
      );
    });
  }

  it('refuses a secret for the reason given, naming its position and never the secret', () => {
    assert.throws(
      () =>
        new StaticCredentials(
          'APIKeyQuery keys',
          [
            ['fine', 1],
            ['s3cret-too-long', 2],
          ],
          (secret) => (secret.length > 4 ? 'is too long' : undefined),
        ),
      (error: unknown) =>
        error instanceof ConfigurationError &&
        error.message === 'APIKeyQuery keys: the secret at position 2 is too long',
    );
  });
});

describe('secretsOrHook', () => {
  const request = { method: 'GET', url: '/', headers: {} } as AuthRequest;
  const hook = (_request: AuthRequest, key: string) => `hooked:${key}`;
  const given = { hook: undefined, secrets: undefined, overridden: false, maxLength: 8 };

  it('is the hook when given, a constant-time lookup when secrets are', async () => {
    assert.equal(secretsOrHook('APIKeyQuery', 'keys', { ...given, hook }), hook);
    const check = secretsOrHook('APIKeyQuery', 'keys', { ...given, secrets: [['k1', 'one']] });
    assert.equal(await check(request, 'k1'), 'one');
    assert.equal(await check(request, 'k2'), undefined);
  });

  it('takes exactly one of a hook, an override and secrets', () => {
    const secrets = [['k1', 'one']] as const;
    for (const wrong of [
      given,
      { ...given, hook, secrets },
      { ...given, overridden: true, secrets },
    ]) {
      assert.throws(() => secretsOrHook('HttpBearer', 'tokens', wrong), {
        code: 'VOUCH_ERR_CONFIGURATION',
      });
    }
  });

  it('refuses a secret longer than maxLength, or malformed, naming its position', () => {
    const malformed = (secret: string) => (secret.includes(' ') ? 'has a space' : undefined);
    const refused: readonly [string, RegExp][] = [
      ['123456789', /HttpBearer tokens: the secret at position 2 is longer than maxLength \(8\)$/],
      ['a b', /HttpBearer tokens: the secret at position 2 has a space$/],
    ];
    for (const [secret, message] of refused) {
      const secrets = [
        ['fine', 1],
        [secret, 2],
      ] as const;
      assert.throws(() => secretsOrHook('HttpBearer', 'tokens', { ...given, secrets, malformed }), {
        code: 'VOUCH_ERR_CONFIGURATION',
        message,
      });
    }
  });

  it('gives an overridden authenticate a check that says why if super calls it', () => {
    const check = secretsOrHook('HttpBasic', 'tokens', { ...given, overridden: true });
    assert.throws(() => check(request, 'k'), /no authenticate hook was given/);
  });
});
