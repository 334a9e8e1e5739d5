import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import express, { type Express, type RequestHandler } from 'express';
import { HttpBearer } from '../index.js';
import { requireAuth } from './require-auth.js';
import { handlersFor, OPAQUE, rootPath, type RouterLike } from './routing.js';

// handlersFor predicts what Express runs by reading `router`'s internals; these tests hold that
// reading against what Express really does, over a real socket.

/** An app whose handlers log their ids and call `next()`; its last handler answers 404. */
interface Probe {
  readonly app: Express;
  /** The id of each handler, for reading handlersFor's answer. */
  readonly ids: Map<unknown, string>;
  /** What ran for the request last sent, as ids. */
  readonly log: string[];
}

function probe(): Probe {
  const app = express();
  // No error stacks on stderr from the requests that go wrong on purpose.
  app.set('env', 'test');
  return { app, ids: new Map(), log: [] };
}

function handler({ ids, log }: Probe, id: string): RequestHandler {
  const handle: RequestHandler = (_req, _res, next) => {
    log.push(id);
    next();
  };
  ids.set(handle, id);
  return handle;
}

/** Closes `probe`'s app with the 404 answer, once every other handler is declared. */
function finish(probe: Probe): void {
  const end: RequestHandler = (_req, res) => {
    probe.log.push('end');
    res.status(404).end();
  };
  probe.ids.set(end, 'end');
  probe.app.use(end);
}

/** What handlersFor yields for the request, as ids (`OPAQUE` as such, a stranger as `?`). */
function predicted({ app, ids }: Probe, method: string, target: string): string[] {
  const path = rootPath(target);
  assert.ok(path !== undefined, target);
  return [...handlersFor(app.router as unknown as RouterLike, path, method)].map((handle) =>
    handle === OPAQUE ? 'OPAQUE' : (ids.get(handle) ?? '?'),
  );
}

/** Starts `probe`'s app; sending a request answers what ran for it. */
async function serve(probe: Probe) {
  const server = createServer(probe.app);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    async send(method: string, target: string): Promise<{ ran: string[]; status: number }> {
      probe.log.length = 0;
      const req = request({ host: '127.0.0.1', port, method, path: target, agent: false });
      req.end();
      const [res] = (await once(req, 'response')) as [IncomingMessage];
      res.resume();
      await once(res, 'end');
      return { ran: [...probe.log], status: res.statusCode ?? 0 };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** Both answers for one request to `probe`'s app: what Express ran, what vouch predicted. */
async function compare(probe: Probe, method: string, target: string) {
  const running = await serve(probe);
  try {
    const { ran } = await running.send(method, target);
    return { ran, predicted: predicted(probe, method, target) };
  } finally {
    await running.close();
  }
}

describe('handlersFor, regressions', () => {
  const bearer = new HttpBearer({ tokens: new Map([['t', 'ann']]) });
  const secret: RequestHandler = (_req, res) => {
    res.send('secret');
  };

  it('skips a use() whose regular expression matches further on in the path', async () => {
    const built = probe();
    built.app.use(/\/public/, handler(built, 'public'));
    finish(built);
    const { ran, predicted } = await compare(built, 'GET', '/secret/public');
    assert.deepEqual(ran, ['end']);
    assert.deepEqual(predicted, ['end']);
  });

  it('lets no requireAuth that Express skips decide, as a regular expression did', async () => {
    const built = probe();
    const { app } = built;
    app.use(requireAuth(bearer));
    app.use(/\/public/, requireAuth(null));
    app.get('/secret/:page', secret);
    const running = await serve(built);
    try {
      assert.equal((await running.send('GET', '/secret/public')).status, 401);
    } finally {
      await running.close();
    }
  });

  it('ends the walk in a Router where matching throws or the Router answers OPTIONS', async () => {
    const built = probe();
    const api = express.Router();
    api.get('/items/:id', handler(built, 'item'));
    built.app.use('/api', api);
    built.app.use(handler(built, 'after'));
    finish(built);
    // `router` goes on with the error, in this Router and above.
    assert.deepEqual(await compare(built, 'GET', '/api/items/%E0'), {
      ran: [],
      predicted: ['OPAQUE'],
    });
    // The Router answers with the methods its routes allow, before what follows it runs.
    assert.deepEqual(await compare(built, 'OPTIONS', '/api/items/1'), {
      ran: [],
      predicted: ['OPAQUE', 'after', 'end'],
    });
  });

  it('lets no requireAuth after a Router decide OPTIONS that the Router answers', async () => {
    const built = probe();
    const { app } = built;
    app.use(requireAuth(bearer));
    const api = express.Router();
    api.get('/items', secret);
    app.use('/api', api);
    app.options('/api/*splat', requireAuth(null), (_req, res) => {
      res.status(204).end();
    });
    const running = await serve(built);
    try {
      assert.equal((await running.send('OPTIONS', '/api/items')).status, 401);
      assert.equal((await running.send('OPTIONS', '/api/other')).status, 204);
    } finally {
      await running.close();
    }
  });

  it('yields no param callback for a route that lacks the method', async () => {
    const built = probe();
    built.app.param('id', (_req, _res, next) => {
      built.log.push('param');
      next();
    });
    built.app.post('/users/:id', handler(built, 'update'));
    built.app.get('/users/:id', handler(built, 'show'));
    finish(built);
    const { ran, predicted } = await compare(built, 'GET', '/users/1');
    assert.deepEqual(ran, ['param', 'show', 'end']);
    assert.deepEqual(predicted, ['OPAQUE', 'show', 'end']);
  });
});
