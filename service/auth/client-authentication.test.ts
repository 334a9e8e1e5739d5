import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RequestView } from 'vouch';
import { presentedClient, type PresentedClient } from './client-authentication.js';

/** A request with these raw header lines, as Node's parser hands them over. */
function withLines(...lines: [string, string][]): RequestView {
  return { method: 'POST', url: '/api/token', headers: {}, raw: { rawHeaders: lines.flat() } };
}

const basicOf = (pair: string) => `Basic ${Buffer.from(pair).toString('base64')}`;

test('RFC 6749 §2.3.1: HTTP Basic presents a client, except the empty pair Swagger UI sends', () => {
  const cases: [string, PresentedClient][] = [
    [basicOf('app:secret'), 'basic'],
    [basicOf('app:'), 'basic'],
    [basicOf(':secret'), 'basic'],
    ['basic bm90IGJhc2U2NA', 'basic'],
    ['BASIC', 'basic'],
    [basicOf(':'), 'none'],
    ['Bearer abc', 'none'],
    ['Basicx abc', 'none'],
  ];
  for (const [value, presented] of cases) {
    assert.equal(presentedClient(withLines(['Authorization', value]), {}), presented, value);
    assert.equal(presentedClient(withLines(['authorization', value]), {}), presented, value);
  }
});

test('two Authorization lines are ambiguous, whatever they hold', () => {
  const request = withLines(['Authorization', 'Bearer a'], ['AUTHORIZATION', basicOf(':')]);
  assert.equal(presentedClient(request, {}), 'ambiguous');
});

test('without raw lines, the parsed header is read', () => {
  const parsed = (authorization: string | string[]): RequestView => ({
    method: 'POST',
    url: '/api/token',
    headers: { authorization },
  });
  assert.equal(presentedClient(parsed(basicOf('app:secret')), {}), 'basic');
  assert.equal(presentedClient(parsed(['Bearer a', 'Bearer b']), {}), 'ambiguous');
  assert.equal(presentedClient({ method: 'POST', url: '/', headers: {} }, {}), 'none');
});

test('RFC 6749 §2.3.1 and RFC 7523: client fields of the body present a client unless empty', () => {
  const none = withLines();
  const cases: [unknown, PresentedClient][] = [
    [{ client_id: 'app' }, 'body'],
    [{ client_secret: 'secret' }, 'body'],
    [{ client_assertion: 'eyJ' }, 'body'],
    [{ client_id: ['a', 'b'] }, 'body'],
    [{ client_id: '', client_secret: '' }, 'none'],
    [{ username: 'alice', password: 'wonderland' }, 'none'],
    [undefined, 'none'],
    [null, 'none'],
    ['client_id=app', 'none'],
  ];
  for (const [body, presented] of cases) {
    assert.equal(presentedClient(none, body), presented, JSON.stringify(body));
  }
});
