import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import express, { type Express, type RequestHandler } from 'express';
import { send, type ContractRequest } from '../../test/contract/harness.js';
import {
  APIKeyCookie,
  AuthenticationError,
  ConfigurationError,
  HttpBasic,
  HttpBearer,
} from '../index.js';
import { createCsrfVerifier } from '../csrf/csrf-protection.js';
import { authOf, exceptionHandler, requireAuth, vouchErrorHandler } from './index.js';

const csrf = createCsrfVerifier({
  secret: 'test-secret-of-sufficient-length-0123456789',
  trustedOrigins: ['http://app.test'],
});
const cookieKey = new APIKeyCookie({ paramName: 'k', keys: new Map([['key-1', 'app']]) });
const bearer = new HttpBearer({
  authenticate: (_request, token) => {
    if (token === 'boom') throw new Error('boom');
    return token === 'good' ? 'ann' : undefined;
  },
});
const basic = new HttpBasic({
  authenticate: (_request, username) => (username === 'bob' ? username : undefined),
});
const answer: RequestHandler = (req, res) => {
  res.json({ auth: req.auth ?? null });
};
const BEARER = { authorization: 'Bearer good' };
const BASIC = { authorization: `Basic ${Buffer.from('bob:pw').toString('base64')}` };

const servers: { close(): unknown }[] = [];
after(() => {
  for (const server of servers) server.close();
});

/** Starts `app` and answers requests to it over a socket. */
async function serve(
  app: Express,
): Promise<(request: Partial<ContractRequest>) => ReturnType<typeof send>> {
  const server = await new Promise<ReturnType<Express['listen']>>((resolve) => {
    const started = app.listen(0, '127.0.0.1', () => {
      resolve(started);
    });
  });
  servers.push(server);
  const { port } = server.address() as AddressInfo;
  return (request) => send(port, { method: 'GET', path: '/', ...request });
}

test('cookie-based auth without csrf options is refused when declared', () => {
  assert.throws(() => requireAuth(cookieKey), { code: 'VOUCH_ERR_CONFIGURATION' });
});

test('CSRF on a cookie key: header token, form token in a parsed body, none', async () => {
  const app = express();
  app.use(express.urlencoded());
  app.post('/k', requireAuth(cookieKey, { csrf }), answer);
  const { token } = csrf.issue('key-1');
  const headers = { origin: 'http://app.test', cookie: `k=key-1; csrftoken=${token}` };
  const post = await serve(app);
  const form = { ...headers, 'content-type': 'application/x-www-form-urlencoded' };
  const header = await post({
    method: 'POST',
    path: '/k',
    headers: { ...headers, 'x-csrftoken': token },
  });
  assert.equal(header.status, 200);
  assert.equal(header.cacheControl, 'private');
  const fromForm = await post({
    method: 'POST',
    path: '/k',
    headers: form,
    body: `csrfmiddlewaretoken=${token}`,
  });
  assert.deepEqual(fromForm.body, { auth: 'app' });
  const without = await post({ method: 'POST', path: '/k', headers: form, body: 'a=1' });
  assert.equal(without.status, 403);
  assert.deepEqual(without.body, { detail: 'CSRF check Failed' });
});

test('Routers: the most specific declaration wins, nested and on a route', async () => {
  const app = express();
  app.use(requireAuth(bearer));
  const outer = express.Router();
  outer.use(requireAuth(basic));
  const inner = express.Router();
  inner.get('/open', requireAuth(null), answer);
  inner.get('/basic', answer);
  outer.use('/in', inner);
  app.use('/out', outer);
  app.get('/head', requireAuth(null), answer);
  app.use((_error: unknown, _req: unknown, _res: unknown, next: (error: unknown) => void) => {
    next(_error);
  });
  app.use((_req, res) => res.status(404).json({ detail: 'Not Found' }));
  const get = await serve(app);
  assert.deepEqual((await get({ path: '/out/in/open' })).body, { auth: null });
  assert.deepEqual((await get({ path: '/out/in/basic', headers: BASIC })).body, { auth: 'bob' });
  assert.equal((await get({ path: '/out/in/basic', headers: BEARER })).status, 401);
  assert.equal((await get({ method: 'HEAD', path: '/head' })).status, 200);
  assert.equal((await get({ path: '/nowhere' })).status, 401);
  assert.equal((await get({ path: '/nowhere', headers: BEARER })).status, 404);
});

test('fail closed: a declaration never covers what may answer before it', async () => {
  const app = express();
  app.get('/late', (_req, _res, next) => {
    next();
  }); // before any requireAuth: not searched
  app.use(requireAuth(bearer));
  app.get(
    '/mw',
    (_req, _res, next) => {
      next();
    },
    requireAuth(null),
    answer,
  );
  app.get(
    '/skip',
    (_req, _res, next) => {
      next('route');
    },
    requireAuth(basic),
    answer,
  );
  app.get('/skip', requireAuth(null), answer);
  app.param('id', (_req, _res, next) => {
    next();
  });
  app.get('/user/:id', requireAuth(null), answer);
  app.get('/wrapped', (req, res, next) => requireAuth(null)(req, res, next), answer);
  // Where the stacks do not show a requireAuth (called by other middleware), it decides alone.
  app.use('/wrapped-use', (req, res, next) => requireAuth(basic)(req, res, next));
  app.get('/wrapped-use', requireAuth(null), answer);
  const raw = express();
  raw.get('/', answer);
  const holder = express.Router();
  holder.use(raw); // an app given to a Router: not seen into
  app.use('/raw', holder);
  app.get('/raw', requireAuth(null), answer);
  const sub = express();
  sub.get('/open', requireAuth(null), answer);
  sub.get('/basic', requireAuth(basic), answer);
  app.use('/sub', sub);
  app.use('/answers', (req, res) => {
    res.json({ auth: req.auth ?? null });
  }); // cannot call next(): it answers, the search stops here
  app.get('/answers/x', requireAuth(null), answer);
  app.use((_req, _res, next) => {
    next();
  }); // takes next(): the search passes over it
  app.get('/late', requireAuth(null), answer);
  app.get('/both', requireAuth(basic), answer);
  const get = await serve(app);
  for (const path of [
    '/mw',
    '/skip',
    '/user/1',
    '/user/%E0%A4%A',
    '/wrapped',
    '/wrapped-use',
    '/raw',
    '/sub/open',
    '/answers/x',
  ]) {
    assert.equal((await get({ path })).status, 401, path);
  }
  // Where vouch cannot read the path as `router` does, each declaration decides for itself.
  assert.equal((await get({ path: 'http://127.0.0.1/late' })).status, 401);
  assert.deepEqual((await get({ path: '/skip', headers: BEARER })).body, { auth: 'ann' });
  assert.deepEqual((await get({ path: '/sub/open', headers: BEARER })).body, { auth: 'ann' });
  assert.deepEqual((await get({ path: '/answers/x', headers: BEARER })).body, { auth: 'ann' });
  // Past middleware that hands on, the route's declaration replaces the app's.
  assert.deepEqual((await get({ path: '/late' })).body, { auth: null });
  assert.deepEqual((await get({ path: '/both', headers: BASIC })).body, { auth: 'bob' });
  assert.equal((await get({ path: '/both', headers: BEARER })).status, 401);
  // A mounted app is not seen into: its declarations decide again, both must pass.
  assert.equal((await get({ path: '/sub/basic', headers: BEARER })).status, 401);
  assert.equal((await get({ path: '/sub/basic', headers: BASIC })).status, 401);
});

test('a route of requireAuth alone: the search goes on past it', async () => {
  const app = express();
  app.get('/split', requireAuth(basic));
  app.get('/split', requireAuth(null), answer); // nothing between: it replaces the other
  const get = await serve(app);
  assert.deepEqual((await get({ path: '/split' })).body, { auth: null });
});

test('a declaration added after requests were served decides', async () => {
  const app = express();
  app.use(requireAuth(bearer));
  const late = app.route('/late').post(answer);
  const router = express.Router();
  app.use('/more', router);
  const get = await serve(app);
  assert.equal((await get({ path: '/late' })).status, 401);
  assert.equal((await get({ path: '/more/open' })).status, 401);
  late.get(requireAuth(null), answer);
  router.get('/open', requireAuth(null), answer);
  assert.deepEqual((await get({ path: '/late' })).body, { auth: null });
  assert.deepEqual((await get({ path: '/more/open' })).body, { auth: null });
});

test('what a decision foresaw past middleware that rewrote the request decides nothing', async () => {
  const app = express();
  app.use(requireAuth(bearer));
  app.use((req, _res, next) => {
    if (req.url === '/old') req.url = '/new';
    const method = req.get('x-method');
    if (method !== undefined) req.method = method;
    next();
  });
  const strict = requireAuth(basic);
  // Foreseen for GET /old: the null after `strict` decides. Express runs another route, where
  // `strict` must decide for itself.
  app.get('/old', strict, requireAuth(null), answer);
  app.get('/new', strict, answer);
  app.get('/method', strict, requireAuth(null), answer);
  app.delete('/method', strict, answer);
  const get = await serve(app);
  assert.equal((await get({ path: '/old' })).status, 401);
  assert.deepEqual((await get({ path: '/old', headers: BASIC })).body, { auth: 'bob' });
  assert.equal((await get({ path: '/method', headers: { 'x-method': 'DELETE' } })).status, 401);
});

test('a route that handed on is not where its first requireAuth runs again', async () => {
  const app = express();
  const strict = requireAuth(basic);
  app.get('/again', strict, requireAuth(null), (_req, _res, next) => {
    next();
  });
  app.use(strict); // `req.route` still names the route above: this one decides here
  app.get('/again', answer);
  const get = await serve(app);
  assert.equal((await get({ path: '/again' })).status, 401);
  assert.deepEqual((await get({ path: '/again', headers: BASIC })).body, { auth: 'bob' });
});

test("authOf gives the winner's value, and throws when something else won", async () => {
  const errors: Error[] = [];
  const app = express();
  const router = express.Router();
  router.get('/who', requireAuth([bearer, basic]), (req, res) => {
    const user: string = authOf(req, bearer);
    res.json({ auth: user });
  });
  router.get('/open', requireAuth(null), (req, res) => {
    authOf(req, null); // throws unless no authentication ran
    res.json({ auth: null });
  });
  app.use('/r', router);
  app.use(vouchErrorHandler({ log: (_message, error) => errors.push(error) }));
  const get = await serve(app);
  assert.deepEqual((await get({ path: '/r/who', headers: BEARER })).body, { auth: 'ann' });
  assert.deepEqual((await get({ path: '/r/open', headers: BEARER })).body, { auth: null });
  const other = await get({ path: '/r/who?secret=s3cret', headers: BASIC });
  assert.equal(other.status, 500);
  assert.deepEqual(other.body, { detail: 'Internal Server Error' });
  assert.equal(errors.length, 1);
  assert.ok(errors[0] instanceof ConfigurationError);
  // The route, not the URL, which may carry a credential.
  assert.equal(errors[0].message, 'authOf(): GET /r/who was not authenticated by the given auth');
});

test('vouchErrorHandler: handlers, vouch errors from handlers, faults, started responses', async (t) => {
  const logged = t.mock.method(console, 'error', () => undefined);
  class Gone extends Error {}
  const app = express();
  app.get('/b', requireAuth(bearer), answer);
  app.get('/gone', () => {
    throw new Gone();
  });
  app.get('/vouch', () => {
    throw new AuthenticationError('Token expired');
  });
  app.get('/value', (_req, _res, next) => {
    next(7); // not an Error: still a logged 500
  });
  app.get('/config', () => {
    throw new ConfigurationError('misdeclared');
  });
  app.set('env', 'test'); // Express's final handler logs nothing
  app.get('/started', (_req, res, next) => {
    res.json({ auth: null });
    next(new Error('late'));
  });
  app.use(
    vouchErrorHandler({
      exceptionHandlers: [
        exceptionHandler(Gone, (_error, _req, res) => res.status(410).json({ detail: 'Gone' })),
      ],
    }),
  );
  const get = await serve(app);
  const boom = await get({ path: '/b', headers: { authorization: 'Bearer boom' } });
  assert.equal(boom.status, 500);
  assert.deepEqual(boom.body, { detail: 'Internal Server Error' });
  assert.equal((await get({ path: '/gone' })).status, 410);
  const vouch = await get({ path: '/vouch' });
  assert.deepEqual([vouch.status, vouch.body], [401, { detail: 'Token expired' }]);
  assert.equal((await get({ path: '/config' })).status, 500);
  assert.equal((await get({ path: '/value' })).status, 500);
  const started = await get({ path: '/started' });
  assert.deepEqual([started.status, started.body], [200, { auth: null }]);
  const ours = logged.mock.calls.filter((call) => String(call.arguments[0]).startsWith('vouch:'));
  assert.equal(ours.length, 3);
});
