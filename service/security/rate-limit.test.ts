import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import {
  createFailureLimiter,
  DEFAULT_FAILURE_LIMITS,
  type CounterStore,
  type FailureLimiter,
} from './rate-limit.js';

/** Checks and fails `times` attempts; returns how many were allowed. */
async function failMany(
  limiter: FailureLimiter,
  times: number,
  address: (i: number) => string,
  username: (i: number) => string,
  device?: string,
): Promise<number> {
  let allowed = 0;
  for (let i = 0; i < times; i++) {
    const attempt = { address: address(i), username: username(i), device };
    const verdict = await limiter.check(attempt);
    if (verdict.allowed) {
      allowed++;
      await limiter.fail(attempt);
    }
  }
  return allowed;
}

function fakeClock(t: TestContext): (ms: number) => void {
  t.mock.timers.enable({ apis: ['Date', 'setTimeout'], now: 1_000_000 });
  return (ms) => {
    t.mock.timers.tick(ms);
  };
}

const at = (address: string, username: string, device?: string) => ({
  address,
  username,
  device,
});

test('the defaults, per 15 minutes: 5 per username and address, 50, 100, 10 per device', () => {
  const fifteen = 15 * 60;
  assert.deepEqual(DEFAULT_FAILURE_LIMITS, {
    perUsernameAndAddress: { attempts: 5, windowSeconds: fifteen },
    perAddress: { attempts: 50, windowSeconds: fifteen },
    perUsername: { attempts: 100, windowSeconds: fifteen },
    perDevice: { attempts: 10, windowSeconds: fifteen },
  });
});

test('an attacker failing from one address locks out that pair only, not the owner elsewhere', async (t) => {
  const tick = fakeClock(t);
  const limiter = createFailureLimiter();
  assert.equal(
    await failMany(
      limiter,
      20,
      () => '203.0.113.9',
      () => 'alice',
    ),
    5,
  );
  tick(60_000);
  assert.deepEqual(await limiter.check(at('203.0.113.9', 'alice')), {
    allowed: false,
    retryAfterSeconds: 14 * 60,
  });
  // The owner, from another address, and other users from the attacker's, are unaffected.
  assert.deepEqual(await limiter.check(at('192.0.2.1', 'alice')), { allowed: true });
  assert.deepEqual(await limiter.check(at('203.0.113.9', 'bob')), { allowed: true });
});

test('per address: the 51st failure from one address is refused, whatever the username', async (t) => {
  fakeClock(t);
  const limiter = createFailureLimiter();
  assert.equal(
    await failMany(
      limiter,
      60,
      () => '203.0.113.9',
      (i) => `user${i}`,
    ),
    50,
  );
  const verdict = await limiter.check(at('203.0.113.9', 'someone-new'));
  assert.deepEqual(verdict, { allowed: false, retryAfterSeconds: 900 });
  assert.deepEqual(await limiter.check(at('203.0.113.10', 'someone-new')), { allowed: true });
});

test('per username: a distributed guess meets a high ceiling, which a trusted device does not', async (t) => {
  fakeClock(t);
  const limiter = createFailureLimiter({ perUsername: { attempts: 20, windowSeconds: 60 } });
  assert.equal(
    await failMany(
      limiter,
      30,
      (i) => `10.0.${i}.1`,
      () => 'alice',
    ),
    20,
  );
  assert.equal((await limiter.check(at('192.0.2.1', 'alice'))).allowed, false);
  // The owner's device is limited on its own, not by the username's ceiling.
  assert.deepEqual(await limiter.check(at('192.0.2.1', 'alice', 'device-1')), { allowed: true });
});

test('a trusted device is limited on its own counter only', async (t) => {
  fakeClock(t);
  const limiter = createFailureLimiter();
  assert.equal(
    await failMany(
      limiter,
      15,
      () => '192.0.2.1',
      () => 'alice',
      'device-1',
    ),
    10,
  );
  assert.equal((await limiter.check(at('192.0.2.1', 'alice', 'device-1'))).allowed, false);
  // Another device of the owner, and the same address without the device, are unaffected.
  assert.deepEqual(await limiter.check(at('192.0.2.1', 'alice', 'device-2')), { allowed: true });
  assert.deepEqual(await limiter.check(at('192.0.2.1', 'alice')), { allowed: true });
});

test('an IPv6 /64 is one address; IPv4-mapped is IPv4', async (t) => {
  fakeClock(t);
  const limiter = createFailureLimiter({ perAddress: { attempts: 3, windowSeconds: 60 } });
  const addresses = ['2001:db8::1', '2001:db8::2', '2001:db8::ffff:3', '2001:db8::4'];
  assert.equal(
    await failMany(
      limiter,
      4,
      (i) => addresses[i]!,
      (i) => `u${i}`,
    ),
    3,
  );
  assert.equal(
    await failMany(
      limiter,
      4,
      (i) => (i % 2 ? '::ffff:192.0.2.7' : '192.0.2.7'),
      (i) => `v${i}`,
    ),
    3,
  );
});

test('limits are configurable, and refused attempts do not extend the wait', async (t) => {
  const tick = fakeClock(t);
  const limiter = createFailureLimiter({
    perUsernameAndAddress: { attempts: 2, windowSeconds: 30 },
  });
  assert.equal(
    await failMany(
      limiter,
      2,
      () => '10.0.0.1',
      () => 'alice',
    ),
    2,
  );
  for (let second = 0; second < 29; second++) {
    const verdict = await limiter.check(at('10.0.0.1', 'alice'));
    assert.deepEqual(verdict, { allowed: false, retryAfterSeconds: 30 - second });
    tick(1000);
  }
  tick(1000);
  assert.deepEqual(await limiter.check(at('10.0.0.1', 'alice')), { allowed: true });
});

test("a success forgets the pair's failures, not the address's", async (t) => {
  fakeClock(t);
  const limiter = createFailureLimiter({
    perUsernameAndAddress: { attempts: 3, windowSeconds: 60 },
    perAddress: { attempts: 5, windowSeconds: 60 },
  });
  assert.equal(
    await failMany(
      limiter,
      2,
      () => '10.0.0.1',
      () => 'alice',
    ),
    2,
  );
  assert.deepEqual(await limiter.check(at('10.0.0.1', 'alice')), { allowed: true });
  await limiter.succeed(at('10.0.0.1', 'alice'));
  // Three fresh failures for alice are allowed again, but the address has 2 + 3 = 5 by then.
  assert.equal(
    await failMany(
      limiter,
      4,
      () => '10.0.0.1',
      () => 'alice',
    ),
    3,
  );
  assert.equal((await limiter.check(at('10.0.0.1', 'bob'))).allowed, false);
});

test("a success from a trusted device forgets the device's failures", async (t) => {
  fakeClock(t);
  const limiter = createFailureLimiter({ perDevice: { attempts: 2, windowSeconds: 60 } });
  assert.equal(
    await failMany(
      limiter,
      2,
      () => '10.0.0.1',
      () => 'alice',
      'device-1',
    ),
    2,
  );
  assert.deepEqual(await limiter.check(at('10.0.0.1', 'alice', 'device-1')), {
    allowed: false,
    retryAfterSeconds: 60,
  });
  await limiter.succeed(at('10.0.0.1', 'alice', 'device-1'));
  assert.equal(
    await failMany(
      limiter,
      3,
      () => '10.0.0.1',
      () => 'alice',
      'device-1',
    ),
    2,
  );
});

test('recheck: a password known right is refused while a limit holds, and counts nothing', async (t) => {
  fakeClock(t);
  const limiter = createFailureLimiter({
    perUsernameAndAddress: { attempts: 3, windowSeconds: 60 },
    perAddress: { attempts: 5, windowSeconds: 60 },
    perDevice: { attempts: 2, windowSeconds: 60 },
  });
  const alice = at('10.0.0.1', 'alice');
  for (let i = 0; i < 10; i++) assert.deepEqual(await limiter.recheck(alice), { allowed: true });
  assert.equal(
    await failMany(
      limiter,
      3,
      () => '10.0.0.1',
      () => 'alice',
    ),
    3,
    'ten rechecks counted nothing',
  );
  // Where check refuses, recheck refuses too, and says for how long.
  assert.deepEqual(await limiter.recheck(alice), { allowed: false, retryAfterSeconds: 60 });
  assert.deepEqual(await limiter.recheck(at('10.0.0.2', 'alice')), { allowed: true });
  // The address's own limit holds as well, whatever the username.
  await failMany(
    limiter,
    2,
    () => '10.0.0.1',
    () => 'bob',
  );
  assert.equal((await limiter.recheck(at('10.0.0.1', 'carol'))).allowed, false);
  // A trusted device is judged on its own counter only.
  const device = at('10.0.0.1', 'alice', 'device-1');
  assert.deepEqual(await limiter.recheck(device), { allowed: true });
  await failMany(
    limiter,
    2,
    () => '10.0.0.1',
    () => 'alice',
    'device-1',
  );
  assert.deepEqual(await limiter.recheck(device), { allowed: false, retryAfterSeconds: 60 });
});

test("recheck, allowed, forgets the pair's failures as a success does, not the address's", async (t) => {
  fakeClock(t);
  const limiter = createFailureLimiter({
    perUsernameAndAddress: { attempts: 3, windowSeconds: 60 },
    perAddress: { attempts: 5, windowSeconds: 60 },
  });
  const fails = () =>
    failMany(
      limiter,
      4,
      () => '10.0.0.1',
      () => 'alice',
    );
  // Two failures, forgotten by the recheck: three more are allowed, then the address's 5 hold.
  assert.equal(
    await failMany(
      limiter,
      2,
      () => '10.0.0.1',
      () => 'alice',
    ),
    2,
  );
  assert.deepEqual(await limiter.recheck(at('10.0.0.1', 'alice')), { allowed: true });
  assert.equal(await fails(), 3);
  assert.equal((await limiter.check(at('10.0.0.1', 'bob'))).allowed, false);
});

test('recheck answers at once while no counter of the attempt can be at its limit', async (t) => {
  const tick = fakeClock(t);
  const limiter = createFailureLimiter({
    perUsernameAndAddress: { attempts: 3, windowSeconds: 60 },
    perAddress: { attempts: 5, windowSeconds: 60 },
  });
  const alice = at('10.0.0.1', 'alice');
  const failAlice = (times: number) =>
    failMany(
      limiter,
      times,
      () => '10.0.0.1',
      () => 'alice',
    );
  // A verdict, not a promise of one.
  assert.deepEqual(limiter.recheck(alice), { allowed: true });
  assert.equal(await failAlice(2), 2);
  assert.deepEqual(limiter.recheck(alice), { allowed: true }, 'below every limit: at once');
  // That recheck forgot the pair's two failures: three more fit, and the address's 5 are reached.
  assert.equal(await failAlice(4), 3);
  const read = limiter.recheck(alice);
  assert.ok(read instanceof Promise, 'a counter may be at its limit: read');
  assert.deepEqual(await read, { allowed: false, retryAfterSeconds: 60 });
  const bob = limiter.recheck(at('10.0.0.1', 'bob'));
  assert.ok(bob instanceof Promise);
  assert.equal((await bob).allowed, false, "the address's limit holds whatever the username");
  assert.deepEqual(limiter.recheck(at('10.0.0.2', 'bob')), { allowed: true });
  tick(60_001);
  assert.deepEqual(limiter.recheck(alice), { allowed: true }, 'their window has passed');
});

test('successful sign-ins count for nothing: a busy address keeps recheck at once', async (t) => {
  fakeClock(t);
  const limiter = createFailureLimiter({ perAddress: { attempts: 5, windowSeconds: 60 } });
  // Many users signing in right from one address (an office behind one NAT).
  for (let i = 0; i < 20; i++) {
    const attempt = at('10.0.0.1', `user-${i}`);
    assert.deepEqual(await limiter.check(attempt), { allowed: true });
    await limiter.succeed(attempt);
  }
  assert.deepEqual(limiter.recheck(at('10.0.0.1', 'alice')), { allowed: true });
  // A release gives its attempt back as well.
  for (let i = 0; i < 20; i++) {
    await limiter.check(at('10.0.0.1', 'bob'));
    await limiter.release(at('10.0.0.1', 'bob'));
  }
  assert.deepEqual(limiter.recheck(at('10.0.0.1', 'bob')), { allowed: true });
});

test('recheck keeps answering at once after a spray of failures has passed its window', async (t) => {
  const tick = fakeClock(t);
  const limiter = createFailureLimiter({
    perUsernameAndAddress: { attempts: 3, windowSeconds: 60 },
    perAddress: { attempts: 5, windowSeconds: 60 },
    perUsername: { attempts: 3000, windowSeconds: 60 },
  });
  // Enough keys that what the limiter remembers of them is swept as it grows.
  const spray = (username: string, addresses: (i: number) => string) =>
    failMany(limiter, 3000, addresses, () => username);
  assert.equal(await spray('alice', (i) => `10.${i >> 8}.${i & 255}.1`), 3000);
  const read = limiter.recheck(at('10.0.7.1', 'alice'));
  assert.ok(read instanceof Promise, "alice's limit is reached");
  assert.equal((await read).allowed, false);
  tick(60_001);
  assert.equal(await spray('bob', (i) => `10.20.${i >> 8}.${i & 255}`), 3000);
  assert.deepEqual(limiter.recheck(at('10.0.7.1', 'alice')), { allowed: true });
  assert.ok(limiter.recheck(at('10.20.0.7', 'bob')) instanceof Promise);
});

test('counters shared with other processes are always read: they may have counted there', async (t) => {
  fakeClock(t);
  const shared: CounterStore = (limit) => new RateLimiterMemory(limit);
  const limiter = createFailureLimiter({}, shared);
  const verdict = limiter.recheck(at('10.0.0.1', 'alice'));
  assert.ok(verdict instanceof Promise);
  assert.deepEqual(await verdict, { allowed: true });
});

test('parallel guesses cannot overtake the limit: each allowed check is counted at once', async (t) => {
  fakeClock(t);
  const limiter = createFailureLimiter({ perUsername: { attempts: 10, windowSeconds: 60 } });
  const verdicts = await Promise.all(
    Array.from({ length: 100 }, (_, i) => limiter.check(at(`10.1.0.${i}`, 'alice'))),
  );
  assert.equal(verdicts.filter((verdict) => verdict.allowed).length, 10);
});

test('release uncounts an attempt that could not be judged', async (t) => {
  fakeClock(t);
  const limiter = createFailureLimiter({
    perUsernameAndAddress: { attempts: 2, windowSeconds: 60 },
  });
  for (let i = 0; i < 10; i++) {
    assert.deepEqual(await limiter.check(at('10.0.0.1', 'alice')), { allowed: true });
    await limiter.release(at('10.0.0.1', 'alice'));
  }
  assert.equal(
    await failMany(
      limiter,
      3,
      () => '10.0.0.1',
      () => 'alice',
    ),
    2,
  );
});

test('uncounting after the window has passed never credits extra attempts', async (t) => {
  const tick = fakeClock(t);
  const limiter = createFailureLimiter({
    perUsernameAndAddress: { attempts: 2, windowSeconds: 10 },
  });
  assert.deepEqual(await limiter.check(at('10.0.0.1', 'alice')), { allowed: true });
  tick(11_000);
  await limiter.release(at('10.0.0.1', 'alice'));
  await limiter.succeed(at('10.0.0.1', 'alice'));
  assert.equal(
    await failMany(
      limiter,
      3,
      () => '10.0.0.1',
      () => 'alice',
    ),
    2,
  );
});

test('huge usernames are bounded; empty ones are fine', async (t) => {
  fakeClock(t);
  const limiter = createFailureLimiter({ perUsername: { attempts: 1, windowSeconds: 60 } });
  assert.deepEqual(await limiter.check(at('10.0.0.1', 'x'.repeat(1_000_000))), {
    allowed: true,
  });
  assert.equal((await limiter.check(at('10.0.0.2', 'x'.repeat(1_000_001)))).allowed, false);
  assert.deepEqual(await limiter.check(at('10.0.0.3', '')), { allowed: true });
});

test('nonsensical limits are refused at construction', () => {
  assert.throws(
    () => createFailureLimiter({ perUsername: { attempts: 0, windowSeconds: 60 } }),
    RangeError,
  );
  assert.throws(
    () => createFailureLimiter({ perDevice: { attempts: 5, windowSeconds: 0 } }),
    RangeError,
  );
});
