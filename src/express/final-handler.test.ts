// Without vouchErrorHandler(), Express's final handler answers vouch's errors thrown by hooks with
// their status, challenges and Retry-After (in its own HTML page), over a real socket; the
// application's error middleware still gets the error as thrown.
import assert from 'node:assert/strict';
import { after, before, describe, it, mock } from 'node:test';
import express, { type ErrorRequestHandler } from 'express';
import { listening, send, type Running } from '../../test/contract/harness.js';
import {
  AuthenticationError,
  AuthorizationError,
  BadRequestError,
  HttpBearer,
  StoreUnavailableError,
} from '../index.js';
import { requireAuth } from './index.js';

const expired = new AuthenticationError('Token expired');

/** An error of the application's that names its own headers, as http-errors' errors do. */
class Revoked extends AuthenticationError {
  readonly headers = { 'x-revoked': 'yes' };
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
      case 'revoked':
        throw new Revoked();
      case 'boom':
        throw new Error('secret internals');
      default:
        return token === 'good' ? 'ann' : undefined;
    }
  },
});

const running: Running[] = [];
after(() => Promise.all(running.map((server) => server.close())));

/** An Express app in production mode on a real socket, with error middleware when given. */
async function start(
  onError?: ErrorRequestHandler,
): Promise<(token: string) => ReturnType<typeof send>> {
  const app = express();
  app.set('env', 'production'); // the final handler's page shows no stack
  app.get('/b', requireAuth(bearer), (req, res) => res.json({ auth: req.auth }));
  if (onError !== undefined) app.use(onError);
  const server = await listening(app.listen(0, '127.0.0.1'));
  running.push(server);
  return (token) =>
    send(server.port, { method: 'GET', path: '/b', headers: { authorization: `Bearer ${token}` } });
}

describe("Express's final handler, without vouchErrorHandler()", () => {
  // Express logs what reaches its final handler, once the answer is on its way.
  before(() => mock.method(console, 'error', () => undefined));
  after(() => {
    mock.restoreAll();
  });

  it('answers vouch errors with their status, challenges and Retry-After', async () => {
    const plain = await start();
    const expected = {
      expired: [401, ['Bearer realm="api", error="invalid_token"'], undefined],
      denied: [403, [], undefined],
      down: [503, [], '7'],
      malformed: [400, ['Bearer realm="api", error="invalid_request"'], undefined],
    } as const;
    for (const [token, [status, challenges, retryAfter]] of Object.entries(expected)) {
      const answer = await plain(token);
      assert.equal(answer.status, status, token);
      assert.deepEqual(answer.challenges, challenges, token);
      assert.equal(answer.retryAfter, retryAfter, token);
      assert.match(answer.contentType ?? '', /^text\/html/, "Express's own page");
    }
    const down = await plain('down');
    assert.doesNotMatch(String(down.body), /pool exhausted/);
  });

  it('keeps the final handler’s 500 for others, and an error’s own headers', async () => {
    const plain = await start();
    const boom = await plain('boom');
    assert.deepEqual([boom.status, boom.challenges], [500, []]);
    assert.doesNotMatch(String(boom.body), /secret internals/);
    const revoked = await plain('revoked');
    assert.deepEqual([revoked.status, revoked.challenges], [401, []], 'its headers, not ours');
  });

  it('error middleware of the application still receives the original error', async () => {
    const seen: unknown[] = [];
    // eslint-disable-next-line @typescript-eslint/no-unused-vars -- Express tells error middleware by its four parameters
    const own = await start((error: unknown, _req, res, _next) => {
      seen.push(error);
      res.status(401).json({ mine: true });
    });
    const answer = await own('expired');
    assert.deepEqual([answer.status, answer.body, answer.challenges], [401, { mine: true }, []]);
    assert.equal(seen[0], expired, 'the very object the hook threw');
    assert.deepEqual(Object.keys(seen[0] as object), Object.keys(new AuthenticationError('x')));
  });
});
