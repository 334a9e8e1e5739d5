import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allOf, APIKeyHeader, HttpBearer } from '../index.js';
import { resolveAuth, type Requirement } from '../core/auth-spec.js';
import { checkWinner } from './check-winner.js';

const bearer = new HttpBearer({ authenticate: () => 'ann' });
const key = new APIKeyHeader({ paramName: 'k', authenticate: () => 'app' });
const robot = (): string => 'robot';
/** The requirement an `auth` value resolves to, as an engine records the winner. */
const won = (auth: unknown, index = 0): Requirement =>
  resolveAuth(auth, 'test')?.[index] as Requirement;
const route = (): string => 'GET /who';

describe('checkWinner', () => {
  it('passes for the auth that won: alone, in a list, all of a group, a function', () => {
    checkWinner(won(bearer), bearer, route);
    checkWinner(won(bearer), [key, bearer], route);
    checkWinner(won(allOf(bearer, key)), allOf(bearer, key), route);
    checkWinner(won(robot), robot, route);
    checkWinner(null, null, route);
  });

  it('throws a ConfigurationError naming the route for anything else', () => {
    const refused: [Requirement | null, unknown][] = [
      [won(key), bearer],
      [won(bearer), allOf(bearer, key)],
      [won(allOf(bearer, key)), bearer],
      [won(allOf(key, bearer)), allOf(bearer, key)],
      [null, bearer],
      [won(bearer), null],
    ];
    for (const [winner, auth] of refused) {
      assert.throws(
        () => {
          checkWinner(winner, auth, route);
        },
        {
          code: 'VOUCH_ERR_CONFIGURATION',
          message: 'authOf(): GET /who was not authenticated by the given auth',
        },
      );
    }
  });

  it('refuses an auth value that is none', () => {
    assert.throws(
      () => {
        checkWinner(won(bearer), 'bearer', route);
      },
      { code: 'VOUCH_ERR_CONFIGURATION' },
    );
  });
});
