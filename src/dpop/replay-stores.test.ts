// The ReplayStore contract, once, against every store (RFC 9449 §11.1): a proof's key is fresh
// once, on any instance sharing the store, until its window ends; the stores that reach a server
// run against a real one (SQLite files, Redis, PostgreSQL), two connections being two instances.
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { StoreUnavailableError } from '../core/errors.js';
import {
  randomKey,
  replayEngines,
  type ReplayInstances,
} from '../../test/helpers/replay-store-engines.js';
import type { ReplayStore } from './replay-store.js';

const MINUTE = 60_000;

/** Claims `key` on each of `stores` at once (none awaited before the last starts); the answers. */
function claimAtOnce(
  stores: readonly ReplayStore[],
  key: string,
  expiresAt: number,
): Promise<boolean[]> {
  return Promise.all(stores.map(async (store) => store.claim(key, expiresAt)));
}

interface Case {
  readonly name: string;
  readonly run: (instances: ReplayInstances) => Promise<void>;
}

const cases: readonly Case[] = [
  {
    name: 'a key is fresh once, then a replay on every instance until it expires',
    async run({ one, other }) {
      const key = randomKey();
      assert.equal(await one.claim(key, Date.now() + MINUTE), true);
      assert.equal(await one.claim(key, Date.now() + MINUTE), false, 'replayed on the same one');
      assert.equal(await other.claim(key, Date.now() + MINUTE), false, 'replayed on another');
      assert.equal(await other.claim(randomKey(), Date.now() + MINUTE), true, 'another key');
    },
  },
  {
    name: 'a key whose window has ended is fresh again, and then a replay again',
    async run({ one, other }) {
      const key = randomKey();
      assert.equal(await one.claim(key, Date.now() + 100), true);
      await sleep(150);
      assert.equal(await other.claim(key, Date.now() + MINUTE), true, 'expired: fresh again');
      assert.equal(await one.claim(key, Date.now() + MINUTE), false);
    },
  },
  {
    name: 'an expiry not in the future is refused, and nothing is recorded',
    async run({ one }) {
      const key = randomKey();
      assert.equal(await one.claim(key, Date.now() - MINUTE), false);
      assert.equal(await one.claim(key, Date.now()), false);
      assert.equal(await one.claim(key, Date.now() + MINUTE), true, 'still unused');
    },
  },
  {
    name: 'an expiry with a fraction of a millisecond is kept as well',
    async run({ one, other }) {
      const key = randomKey();
      assert.equal(await one.claim(key, Date.now() + MINUTE + 0.5), true);
      assert.equal(await other.claim(key, Date.now() + MINUTE + 0.5), false);
    },
  },
  {
    name: 'an expiry that is not a finite number is a TypeError',
    async run({ one }) {
      for (const expiresAt of [Number.NaN, Infinity, -Infinity]) {
        await assert.rejects(async () => one.claim(randomKey(), expiresAt), TypeError);
      }
    },
  },
  {
    name: 'claims of one key at once from both instances: exactly one is fresh',
    async run({ one, other }) {
      const stores = Array.from({ length: 20 }, (_, i) => (i % 2 ? one : other));
      const answers = await claimAtOnce(stores, randomKey(), Date.now() + MINUTE);
      assert.equal(answers.filter(Boolean).length, 1);
    },
  },
  {
    name: 'many keys claimed at once, each from both instances: each is fresh exactly once',
    async run({ one, other }) {
      const expiresAt = Date.now() + MINUTE;
      const keys = Array.from({ length: 50 }, randomKey);
      const answers = await Promise.all(
        keys.map((key) => claimAtOnce([one, other, one, other], key, expiresAt)),
      );
      for (const [i, key] of keys.entries()) {
        assert.equal(answers[i]?.filter(Boolean).length, 1, `key ${key}`);
      }
    },
  },
];

for (const engine of replayEngines) {
  describe(`ReplayStore contract (RFC 9449 §11.1): ${engine.name}`, () => {
    for (const { name, run } of cases) {
      it(name, async (t: TestContext) => {
        const instances = await engine.open(t);
        if (instances !== undefined) await run(instances);
      });
    }

    const { unreachable } = engine;
    if (unreachable !== undefined) {
      it('a store that cannot reach its backend answers StoreUnavailableError, never fresh', async (t) => {
        const store = await unreachable(t);
        await assert.rejects(
          async () => store.claim(randomKey(), Date.now() + MINUTE),
          (error) => {
            assert.ok(error instanceof StoreUnavailableError);
            assert.equal(error.code, 'VOUCH_ERR_STORE_UNAVAILABLE');
            assert.ok(error.cause !== undefined, 'the failure is kept as its cause');
            return true;
          },
        );
      });
    }
  });
}
