// Runs the contract table against one adapter over a real socket.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cases } from './cases.js';
import { app } from './declarations.js';
import { send, type Harness, type Running } from './harness.js';

/** Declares one test per case of the table, against the app `harness` builds. */
export function runContract(harness: Harness): void {
  describe(`contract on ${harness.name}`, () => {
    let running: Running;
    before(async () => {
      running = await harness.start(app);
    });
    after(() => running.close());

    for (const { name, request, expected, shape, before: first } of cases) {
      const skip = shape !== undefined && !harness.shapes.has(shape) && `no ${shape} here`;
      it(name, { skip }, async () => {
        if (first !== undefined) {
          const earlier = await send(running.port, first);
          assert.equal(earlier.status, 200, `the request before: ${JSON.stringify(earlier.body)}`);
        }
        const answer = await send(running.port, request);
        assert.equal(answer.status, expected.status, JSON.stringify(answer.body));
        // A HEAD answer has headers only.
        if (request.method === 'HEAD') assert.equal(answer.body, undefined);
        else if ('body' in expected) {
          assert.deepEqual(answer.body, expected.body);
          if (expected.body !== undefined)
            assert.match(answer.contentType ?? '', /^application\/json/);
        } else if (expected.status === 200) {
          assert.deepEqual(answer.body, { auth: expected.auth });
        } else {
          assert.equal(answer.contentType, 'application/json; charset=utf-8');
          assert.deepEqual(answer.body, { detail: expected.detail });
        }
        if (expected.challenges !== undefined || expected.status !== 401) {
          const lines = expected.challenges ?? [];
          // RFC 9110 §5.3 lets a sender combine the lines into one; Fetch's Headers always do.
          assert.deepEqual(
            answer.challenges,
            harness.combinesLines && lines.length > 1 ? [lines.join(', ')] : lines,
          );
        }
        if (expected.cacheControl !== undefined) {
          assert.equal(answer.cacheControl, expected.cacheControl);
        }
        if (expected.retryAfter !== undefined) assert.equal(answer.retryAfter, expected.retryAfter);
        if (expected.allowOrigin !== undefined) {
          assert.equal(answer.allowOrigin, expected.allowOrigin);
        }
        if (expected.dpopNonce !== undefined) {
          const nonce = answer.dpopNonce;
          assert.ok(nonce !== undefined && expected.dpopNonce.includes(nonce), nonce);
        }
        if ('seen' in expected) assert.deepEqual(answer.seen, expected.seen);
      });
    }
  });
}
