import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { hashGate } from './hash-gate.js';
import { PasswordChecksBusyError } from '../errors.js';

test('runs checks a few at a time, queues a few more, refuses the rest at once', async () => {
  const gate = hashGate({ concurrency: 2, queue: 3, maxAnswerMs: Infinity });
  let running = 0;
  let most = 0;
  let ended = 0;
  const check = async () => {
    running++;
    most = Math.max(most, running);
    await sleep(20);
    running--;
    ended++;
    return 'checked';
  };
  // How many checks had ended when each refusal came.
  const endedAtRefusal: number[] = [];
  const run = () =>
    gate.run(check).catch((error: unknown) => {
      endedAtRefusal.push(ended);
      throw error;
    });
  assert.equal(gate.busy(), false);
  const outcomes = await Promise.allSettled(Array.from({ length: 10 }, run));
  const checked = outcomes.filter((outcome) => outcome.status === 'fulfilled');
  const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
  assert.equal(checked.length, 5, 'two running and three queued');
  assert.equal(most, 2);
  for (const outcome of refused) {
    assert.ok(outcome.reason instanceof PasswordChecksBusyError);
    assert.equal(outcome.reason.code, 'VOUCH_SERVICE_PASSWORD_CHECKS_BUSY');
  }
  // At once, whatever the machine's pace: before any check had ended.
  assert.deepEqual(endedAtRefusal, [0, 0, 0, 0, 0]);
  // Once the queue drains, checks are taken again.
  assert.equal(await gate.run(check), 'checked');
});

test('a check that fails frees its turn', async () => {
  const gate = hashGate({ concurrency: 1, queue: 0, maxAnswerMs: Infinity });
  await assert.rejects(
    gate.run(() => Promise.reject(new Error('broken'))),
    /broken/,
  );
  assert.equal(await gate.run(() => Promise.resolve(1)), 1);
});

test('refuses a check that would be answered later than maxAnswerMs at the recent pace', async () => {
  const gate = hashGate({ concurrency: 1, queue: 100, maxAnswerMs: 140 });
  const check = () => sleep(40).then(() => 'checked');
  // The pace is learned from the checks themselves.
  for (let i = 0; i < 8; i++) await gate.run(check);
  const outcomes = await Promise.allSettled(Array.from({ length: 10 }, () => gate.run(check)));
  const checked = outcomes.filter((outcome) => outcome.status === 'fulfilled').length;
  // As many as are answered within 140 ms at about 40 ms each: three, give or take one.
  assert.ok(checked >= 2 && checked <= 4, `${checked} checks were taken`);
  assert.equal(gate.busy(), false, 'free again once they are done');
});

test('a waiting check whose turn comes too late is refused at its deadline, never run', async () => {
  const gate = hashGate({ concurrency: 1, queue: 1, maxAnswerMs: 300 });
  // The pace is learned from the checks themselves: about 20 ms each.
  for (let i = 0; i < 5; i++) await gate.run(() => sleep(20));
  // Then a check slows down far past the pace, with another waiting behind it.
  const slow = gate.run(() => sleep(700).then(() => 'slow'));
  let ran = false;
  const started = performance.now();
  const waiting = gate.run(async () => {
    ran = true;
    return 'waited';
  });
  await assert.rejects(waiting, (error: unknown) => {
    assert.ok(error instanceof PasswordChecksBusyError);
    assert.equal(error.code, 'VOUCH_SERVICE_PASSWORD_CHECKS_BUSY');
    return true;
  });
  const waitedMs = performance.now() - started;
  // It may wait 300 ms less its expected 20 or so, whatever the slow check does.
  assert.ok(waitedMs >= 200 && waitedMs < 600, `refused after ${waitedMs} ms`);
  // The refused check no longer counts as waiting: another may take its place at once.
  assert.equal(gate.busy(), false);
  assert.equal(await slow, 'slow');
  assert.equal(ran, false, 'a refused check never runs');
  // Once the slow check has ended and the refused one's turn has been passed over, a check that
  // can start at once is taken, however slow the last one was.
  await sleep(0);
  assert.equal(await gate.run(() => Promise.resolve('free')), 'free');
});
