// The heartbeat: answered questions keep it quiet, an unanswered one is reported within its
// deadline, and a busy event loop is not taken for a silent server (an echo server in a process of
// its own, answering while this one is blocked).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { test, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { until } from '../../test/helpers/wait.js';
import { heartbeat } from './heartbeat.js';

const ECHO_SERVER = `
  const server = require('node:net').createServer((socket) => socket.pipe(socket));
  server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

/** A question to an echo server in another process: resolves when the byte comes back. */
async function echo(t: TestContext): Promise<(blockMs?: number) => Promise<void>> {
  const child = spawn(process.execPath, ['-e', ECHO_SERVER], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  t.after(() => child.kill());
  const [line] = (await once(child.stdout, 'data')) as [Buffer];
  const socket = connect(Number(line.toString()), '127.0.0.1');
  await once(socket, 'connect');
  t.after(() => socket.destroy());
  /** Asks; with `blockMs`, sends the byte on the next turn of the event loop, then is busy. */
  return (blockMs = 0) =>
    new Promise<void>((resolve) => {
      socket.once('data', () => {
        resolve();
      });
      if (blockMs === 0) {
        socket.write('?');
        return;
      }
      setImmediate(() => {
        socket.write('?');
        const busyUntil = Date.now() + blockMs;
        while (Date.now() < busyUntil);
      });
    });
}

const never = () => new Promise<void>(() => {});

test('answered questions are asked every interval and never reported', async (t) => {
  const ask = await echo(t);
  let asked = 0;
  const silences: Error[] = [];
  const stop = heartbeat(
    () => {
      asked += 1;
      return ask();
    },
    (error) => silences.push(error),
    'the echo server',
    { intervalMs: 50, deadlineMs: 100 },
  );
  t.after(stop);
  const started = performance.now();
  await until(() => asked >= 5, 'five questions');
  const elapsed = performance.now() - started;
  assert.deepEqual(silences, []);
  // Never more often than every interval (a busy machine may ask less often, never more).
  assert.ok(asked <= elapsed / 50 + 1, `asked ${asked} times in ${elapsed} ms`);
});

test('a question unanswered within the deadline is reported, once, and no other is asked meanwhile', async (t) => {
  let asked = 0;
  const silences: { at: number; asked: number; message: string }[] = [];
  const started = Date.now();
  const stop = heartbeat(
    () => {
      asked += 1;
      return never();
    },
    (error) => silences.push({ at: Date.now(), asked, message: error.message }),
    'the server',
    { intervalMs: 50, deadlineMs: 200 },
  );
  t.after(stop);
  await until(() => silences.length === 1, 'reported');
  const [silence] = silences;
  assert.equal(silence?.message, 'the server did not answer within 200 ms');
  assert.equal(silence.asked, 1, 'the next question waits for the first');
  const after = silence.at - started;
  // Not before the first interval and the deadline; later only as late as a busy machine's timers.
  assert.ok(after >= 250 && after < 2000, `reported ${after} ms after the start`);
});

test('an answer that arrived while the event loop was blocked counts', async (t) => {
  const ask = await echo(t);
  const silences: Error[] = [];
  let block = false;
  const stop = heartbeat(
    () => {
      // Busy past the deadline right after asking, as under a burst of synchronous work: the
      // answer is in the socket before the deadline's timer runs, unread.
      const question = ask(block ? 300 : 0);
      block = false;
      return question;
    },
    (error) => silences.push(error),
    'the echo server',
    { intervalMs: 50, deadlineMs: 100 },
  );
  t.after(stop);
  block = true;
  await sleep(700);
  assert.equal(block, false, 'the event loop was blocked');
  assert.deepEqual(silences, []);
});

test('stopped, it asks nothing more', async () => {
  let asked = 0;
  const stop = heartbeat(
    () => {
      asked += 1;
      return Promise.resolve();
    },
    () => {},
    'the echo server',
    { intervalMs: 20, deadlineMs: 100 },
  );
  await sleep(70);
  stop();
  const before = asked;
  assert.ok(before > 0);
  await sleep(100);
  assert.equal(asked, before);
});

test('a beat the connection cannot take (not up) asks nothing', async (t) => {
  let tried = 0;
  const silences: Error[] = [];
  const stop = heartbeat(
    () => {
      tried += 1;
      return undefined;
    },
    (error) => silences.push(error),
    'nothing',
    { intervalMs: 20, deadlineMs: 30 },
  );
  t.after(stop);
  // Counted beats, not a clock: a busy machine may run fewer timers in a given time.
  await until(() => tried >= 4, 'four beats');
  assert.deepEqual(silences, []);
});
