// HTTP Basic's memory as the guard keeps it, over a real SQLite store under the credential cache,
// with real scrypt runs counted: a remembered login is answered at once (a value, not a promise),
// and one in steady use is verified again before memory forgets it, so no request waits for it.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Awaitable } from 'vouch';
import { countScrypt } from '../../test/helpers/count-scrypt.js';
import { until } from '../../test/helpers/wait.js';
import { deviceCookies } from '../security/device-cookie.js';
import { hashGate, type HashGate } from '../security/hash-gate.js';
import { hashPassword, type ScryptParameters } from '../security/passwords.js';
import { createFailureLimiter } from '../security/rate-limit.js';
import { refusalDelay } from '../security/refusal-delay.js';
import { cacheCredentials } from '../store/credential-cache.js';
import { openSqliteStore } from '../store/sqlite/open-sqlite-store.js';
import type { LiveLogin } from '../store/store.js';
import { TooManyAttemptsError } from '../errors.js';
import { createLoginGuard } from './login-guard.js';

const FAST: ScryptParameters = { N: 2 ** 10, r: 8, p: 1 };
const HERE = { address: '192.0.2.1', cookie: undefined };

/** An answer that must come later (a password check); fails on a value given at once. */
function checkedInFull(
  answer: Awaitable<LiveLogin | undefined>,
  what: string,
): Promise<LiveLogin | undefined> {
  assert.ok(answer instanceof Promise, what);
  return answer as Promise<LiveLogin | undefined>;
}

/** The username of an answer given at once; fails on a promise. */
function answeredAtOnce(answer: Awaitable<LiveLogin | undefined>, what: string): string {
  assert.ok(!(answer instanceof Promise), what);
  return (answer as LiveLogin).user.username;
}

/** A guard over a cached SQLite store holding alice, its memory lasting `ttlMs`. */
async function guardWithAlice(t: TestContext, ttlMs: number, gate: HashGate = hashGate()) {
  let ready = false;
  const engine = openSqliteStore(':memory:');
  const store = cacheCredentials(
    {
      ...engine,
      watchChanges: (watcher) =>
        engine.watchChanges({
          ...watcher,
          ready() {
            ready = true;
            watcher.ready();
          },
        }),
    },
    { ttlMs },
  );
  t.after(() => store.close());
  await until(() => ready, "the store's watch is ready");
  await store.createUser('alice', await hashPassword('wonderland', FAST), Date.now());
  await store.createUser('bob', await hashPassword('bobpassword', FAST), Date.now());
  const limiter = createFailureLimiter({
    perUsernameAndAddress: { attempts: 2, windowSeconds: 60 },
  });
  const guard = createLoginGuard({
    store,
    limiter,
    devices: deviceCookies('device-key', { secure: false }),
    gate,
    delay: refusalDelay({ ms: 0 }),
    loginKey: 'login-key',
  });
  return { guard };
}

test('a remembered login is answered at once, a wrong password never', async (t) => {
  const { guard } = await guardWithAlice(t, 60_000);
  const costs = countScrypt(t);
  const alice = await checkedInFull(
    guard.recognise(HERE, 'alice', 'wonderland'),
    'checked in full the first time',
  );
  assert.equal(alice?.user.username, 'alice');
  assert.deepEqual(guard.recognise(HERE, 'alice', 'wonderland'), alice, 'a value, no promise');
  assert.equal(answeredAtOnce(guard.recognise(HERE, 'alice', 'wonderland'), 'again'), 'alice');
  assert.equal(
    await checkedInFull(guard.recognise(HERE, 'alice', 'wonderlant'), 'wrong'),
    undefined,
  );
  assert.equal(costs.length, 2, 'the right password once, the wrong one');
});

test('where a limit holds, a remembered login is refused as a guess is', async (t) => {
  const { guard } = await guardWithAlice(t, 60_000);
  await guard.recognise(HERE, 'alice', 'wonderland');
  const attacker = { address: '203.0.113.9', cookie: undefined };
  for (const guess of ['guess-1', 'guess-2']) {
    assert.equal(await guard.recognise(attacker, 'alice', guess), undefined);
  }
  await assert.rejects(
    Promise.resolve(guard.recognise(attacker, 'alice', 'wonderland')),
    TooManyAttemptsError,
  );
  await assert.rejects(
    Promise.resolve(guard.recognise(attacker, 'alice', 'guess-3')),
    TooManyAttemptsError,
  );
  assert.equal(answeredAtOnce(guard.recognise(HERE, 'alice', 'wonderland'), 'elsewhere'), 'alice');
});

test('a login in steady use is verified again before it is forgotten: never a wait', async (t) => {
  // Memory of 2 s: a login is due for renewal within its last half second.
  const { guard } = await guardWithAlice(t, 2000);
  const costs = countScrypt(t);
  await guard.recognise(HERE, 'alice', 'wonderland');
  const started = performance.now();
  let answered = 0;
  while (performance.now() - started < 5000) {
    const answer = guard.recognise(HERE, 'alice', 'wonderland');
    assert.equal(answeredAtOnce(answer, `from memory after ${answered} requests`), 'alice');
    answered += 1;
    await sleep(20);
  }
  // The first check, then one renewal every 1.5–2 s.
  assert.ok(costs.length >= 3 && costs.length <= 5, `${costs.length} password checks`);
  // Left alone, it is forgotten on time, and the next request checks it in full.
  await sleep(2300);
  const later = checkedInFull(
    guard.recognise(HERE, 'alice', 'wonderland'),
    'forgotten for its age',
  );
  assert.equal((await later)?.user.username, 'alice');
});

test('a sign-in while a renewal runs is never refused: renewals are not in its way', async (t) => {
  // One check at a time and none waiting: a sign-in behind a renewal would be refused (503).
  const { guard } = await guardWithAlice(t, 2000, hashGate({ concurrency: 1, queue: 0 }));
  const costs = countScrypt(t);
  await guard.recognise(HERE, 'alice', 'wonderland');
  const started = performance.now();
  let signIns = 0;
  while (performance.now() - started < 3000) {
    answeredAtOnce(guard.recognise(HERE, 'alice', 'wonderland'), 'remembered');
    // In the same turn as the request that may have started a renewal.
    const bob = await guard.check(HERE, 'bob', 'bobpassword');
    assert.equal(bob?.user.username, 'bob');
    signIns += 1;
    await sleep(20);
  }
  assert.ok(costs.length > 1 + signIns, `${costs.length - 1 - signIns} renewals`);
});
