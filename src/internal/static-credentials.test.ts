import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigurationError } from '../core/errors.js';
import { StaticCredentials } from './static-credentials.js';

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
