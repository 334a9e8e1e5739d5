// Without app.onError, Hono's own error handler answers vouch's errors thrown by hooks exactly as
// vouchErrorHandler() would, over a real socket; an application's onError still gets the error.
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { after, describe, it } from 'node:test';
import { serve } from '@hono/node-server';
import { Hono, type ErrorHandler } from 'hono';
import { listening, send, type Running } from '../../test/contract/harness.js';
import {
  AuthenticationError,
  AuthorizationError,
  BadRequestError,
  HttpBearer,
  StoreUnavailableError,
} from '../index.js';
import { requireAuth, vouchErrorHandler } from './index.js';

const expired = new AuthenticationError('Token expired');
const frozen = Object.freeze(new AuthenticationError()) as AuthenticationError;

/** An error of the application's that answers by itself, as Hono's HTTPException does. */
class Teapot extends AuthorizationError {
  getResponse(): Response {
    return new Response('short and stout', { status: 418 });
  }
}

const bearer = new HttpBearer({
  authenticate: (_request, token) => {
    switch (token) {
      case 'expired':
        throw expired;
      case 'denied':
        throw new AuthorizationError();
      case 'down':
        throw new StoreUnavailableError('pool exhausted', { retryAfter: 7 });
      case 'malformed':
        throw new BadRequestError();
      case 'teapot':
        throw new Teapot();
      case 'frozen':
        throw frozen;
      case 'boom':
        throw new Error('secret internals');
      default:
        return token === 'good' ? 'ann' : undefined;
    }
  },
});

const running: Running[] = [];
after(() => Promise.all(running.map((server) => server.close())));

/** A Hono app on a real socket, with `onError` when given. */
async function start(onError?: ErrorHandler): Promise<(token: string) => ReturnType<typeof send>> {
  const app = new Hono();
  if (onError !== undefined) app.onError(onError);
  app.get('/b', requireAuth(bearer), (c) => c.json({ auth: c.get('auth') }));
  const server = await listening(
    serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }) as Server,
  );
  running.push(server);
  return (token) =>
    send(server.port, { method: 'GET', path: '/b', headers: { authorization: `Bearer ${token}` } });
}

describe("Hono's default error handler, without app.onError", () => {
  it('answers vouch errors as vouchErrorHandler() does: status, body, challenges, headers', async (t) => {
    const logged = t.mock.method(console, 'error', () => undefined);
    const plain = await start();
    const handled = await start(vouchErrorHandler());
    const expected = {
      expired: {
        status: 401,
        body: { detail: 'Token expired' },
        challenges: ['Bearer realm="api", error="invalid_token"'],
      },
      denied: { status: 403, body: { detail: 'Forbidden' }, challenges: [] },
      down: { status: 503, body: { detail: 'Service Unavailable' }, challenges: [] },
      malformed: {
        status: 400,
        body: { detail: 'Bad Request' },
        challenges: ['Bearer realm="api", error="invalid_request"'],
      },
    };
    for (const [token, want] of Object.entries(expected)) {
      const answer = await plain(token);
      assert.deepEqual(answer, await handled(token), token);
      assert.equal(answer.status, want.status, token);
      assert.deepEqual(answer.body, want.body, token);
      assert.deepEqual(answer.challenges, want.challenges, token);
      assert.equal(answer.contentType, 'application/json; charset=utf-8', token);
    }
    assert.equal((await plain('down')).retryAfter, '7');
    // The outage is logged as vouchErrorHandler() logs it; nothing else was.
    const messages = logged.mock.calls.map((call) => call.arguments[0] as unknown);
    assert.deepEqual(new Set(messages), new Set(['vouch: credential store unavailable']));
  });

  it('keeps Hono’s 500 for errors that are not vouch’s, and an error’s own getResponse', async (t) => {
    const logged = t.mock.method(console, 'error', () => undefined);
    const plain = await start();
    const boom = await plain('boom');
    assert.deepEqual([boom.status, boom.body], [500, 'Internal Server Error']);
    assert.equal(logged.mock.callCount(), 1, 'Hono logs it');
    const teapot = await plain('teapot');
    assert.deepEqual([teapot.status, teapot.body], [418, 'short and stout']);
    // A frozen error cannot be given a response: Hono's 500, and nothing thrown on the way.
    const frozen = await plain('frozen');
    assert.deepEqual([frozen.status, frozen.body], [500, 'Internal Server Error']);
  });

  it('an application’s own onError still receives the original error', async () => {
    const seen: unknown[] = [];
    const own = await start((error, c) => {
      seen.push(error);
      return c.json({ mine: true }, 401);
    });
    const answer = await own('expired');
    assert.deepEqual([answer.status, answer.body, answer.challenges], [401, { mine: true }, []]);
    assert.equal(seen[0], expired, 'the very object the hook threw');
    assert.ok(seen[0] instanceof AuthenticationError);
    assert.deepEqual(Object.keys(seen[0]), Object.keys(new AuthenticationError('x')));
  });
});
