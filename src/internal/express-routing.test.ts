import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import express, {
  type ErrorRequestHandler,
  type Express,
  type RequestHandler,
  type Router,
} from 'express';
import fc from 'fast-check';
import { HttpBearer } from '../index.js';
import { requireAuth } from '../express/require-auth.js';
import { STOP } from './precedence.js';
import {
  handlersFor,
  holding,
  rootPath,
  type Holding,
  type Layer,
  type RouterLike,
} from './express-routing.js';

// handlersFor predicts what Express runs by reading `router`'s internals; these tests hold that
// reading against what Express really does, over a real socket.

/** An app whose handlers log their ids and call `next()`; its last handler answers 404. */
interface Probe {
  readonly app: Express;
  /** The id of each handler, for reading handlersFor's answer. */
  readonly ids: Map<unknown, string>;
  /** What ran for the request last sent: ids, error handlers' prefixed with `!`. */
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

function errorHandler({ ids, log }: Probe, id: string): ErrorRequestHandler {
  const handle: ErrorRequestHandler = (error, _req, _res, next) => {
    log.push(`!${id}`);
    next(error);
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

/** What handlersFor yields for the request, as ids (`STOP` as `OPAQUE`, a stranger as `?`). */
function predicted(
  { app, ids }: Probe,
  method: string,
  target: string,
  mayDeclare?: Holding,
): string[] {
  const path = rootPath(target);
  assert.ok(path !== undefined, target);
  const router = app.router as unknown as RouterLike;
  const name = (handle: unknown) => ids.get(handle) ?? '?';
  const walk = handlersFor(router, path, method, name, mayDeclare);
  return [...walk].map((id) => (id === STOP ? 'OPAQUE' : id));
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

// The generated apps: paths of a few literal segments and parameters, Express 5 wildcards and
// optional groups, routers nested two deep, a regular expression where `use()` takes a path.

type RouteMethod = 'get' | 'post' | 'put' | 'delete' | 'all' | 'head';
type Prefix = string | RegExp | string[] | undefined;
type Item =
  | { readonly kind: 'use'; readonly prefix: Prefix; readonly error: boolean }
  | {
      readonly kind: 'route';
      readonly path: string;
      readonly handlers: readonly { readonly method: RouteMethod; readonly error: boolean }[];
    }
  | {
      readonly kind: 'router';
      readonly prefix: Prefix;
      readonly options: { mergeParams: boolean; caseSensitive: boolean; strict: boolean };
      readonly items: readonly Item[];
    };
interface AppSpec {
  readonly caseSensitive: boolean;
  readonly strict: boolean;
  readonly items: readonly Item[];
}

/** `true` `percent` times in a hundred. */
const sometimes = (percent: number) =>
  fc.oneof(
    { arbitrary: fc.constant(false), weight: 100 - percent },
    { arbitrary: fc.constant(true), weight: percent },
  );

const pattern = fc
  .tuple(
    fc.array(fc.constantFrom('a', 'b', 'users', 'A', ':', ':'), { maxLength: 3 }),
    fc.constantFrom('', '', '/', '/*splat', '{/:opt}'),
  )
  .map(([segments, tail]) => {
    const path = segments.map((s, i) => (s === ':' ? `/:p${i}` : `/${s}`)).join('') + tail;
    return path === '' ? '/' : path;
  });
const prefix: fc.Arbitrary<Prefix> = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 2 },
  { arbitrary: pattern, weight: 4 },
  {
    arbitrary: fc.constantFrom(/\/a/, /^\/b/, /\/(?<name>users)/i, ['/a', '/:p0/b']),
    weight: 1,
  },
);
const routeMethod = fc.constantFrom<RouteMethod>('get', 'post', 'put', 'delete', 'all', 'head');
const useItem = fc.record({ kind: fc.constant('use' as const), prefix, error: sometimes(20) });
const routeItem = fc.record({
  kind: fc.constant('route' as const),
  path: pattern,
  handlers: fc.array(fc.record({ method: routeMethod, error: sometimes(15) }), {
    minLength: 1,
    maxLength: 3,
  }),
});
const options = fc.record({
  mergeParams: fc.boolean(),
  caseSensitive: fc.boolean(),
  strict: fc.boolean(),
});
const leaf = fc.oneof({ arbitrary: useItem, weight: 2 }, { arbitrary: routeItem, weight: 3 });
const items = (depth: number): fc.Arbitrary<Item[]> =>
  fc.array(
    depth === 0
      ? leaf
      : fc.oneof(
          { arbitrary: leaf, weight: 3 },
          {
            arbitrary: fc.record({
              kind: fc.constant('router' as const),
              prefix,
              options,
              items: items(depth - 1),
            }),
            weight: 1,
          },
        ),
    { minLength: 1, maxLength: 5 },
  );
const appSpec: fc.Arbitrary<AppSpec> = fc.record({
  caseSensitive: sometimes(20),
  strict: sometimes(20),
  items: items(2),
});

// Requests: segments that match the literals, percent-encoded ones (one malformed), empty ones
// (a double slash); paths at random or filling in the app's own patterns; in another case, with
// a trailing slash, with a query.
const segment = fc.oneof(
  { arbitrary: fc.constantFrom('a', 'b', 'users', '1'), weight: 8 },
  {
    arbitrary: fc.constantFrom('A', 'Users', 'caf%C3%A9', '%61', '%2F', ''),
    weight: 3,
  },
  { arbitrary: fc.constant('%E0'), weight: 1 },
);
const anywhere = fc
  .array(segment, { maxLength: 4 })
  .map((segments) => segments.map((s) => `/${s}`).join(''));

/** Every path the app declares, its prefixes included (a regular expression as one it matches). */
function patterns(declared: readonly Item[], base = ''): string[] {
  const join = (path: string) => base.replace(/\/$/, '') + path;
  return declared.flatMap((item) => {
    if (item.kind === 'route') return [join(item.path)];
    const { prefix } = item;
    const path = join(
      prefix === undefined ? '' : prefix instanceof RegExp ? '/users' : [prefix].flat()[0]!,
    );
    return item.kind === 'router' ? [path, ...patterns(item.items, path)] : [path];
  });
}

const aimed = (spec: AppSpec) =>
  fc
    .tuple(
      fc.constantFrom(...patterns(spec.items)),
      fc.array(fc.tuple(segment, fc.boolean()), { minLength: 12, maxLength: 12 }),
    )
    .map(([path, values]) =>
      path.replace(/\{\/:opt\}|\*splat|:p\d/g, (token) => {
        const [value, more] = values.pop() ?? ['a', false];
        if (token === '{/:opt}') return more ? `/${value}` : '';
        if (token === '*splat') return more ? `${value}/${value}` : value;
        return value;
      }),
    );

const target = (spec: AppSpec) =>
  fc
    .tuple(fc.oneof(anywhere, aimed(spec)), sometimes(25), sometimes(15), sometimes(10))
    .map(([path, slash, upper, query]) => {
      const cased = upper ? path.toUpperCase() : path;
      return (
        (cased.startsWith('/') ? cased : `/${cased}`) + (slash ? '/' : '') + (query ? '?q=1' : '')
      );
    });
const method = fc.constantFrom('GET', 'GET', 'HEAD', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS');

function build(spec: AppSpec): Probe {
  const built = probe();
  if (spec.caseSensitive) built.app.enable('case sensitive routing');
  if (spec.strict) built.app.enable('strict routing');
  let next = 0;
  const declare = (router: Router, declared: readonly Item[]): void => {
    for (const item of declared) {
      const id = `h${next++}`;
      if (item.kind === 'use') {
        const handle = item.error ? errorHandler(built, id) : handler(built, id);
        if (item.prefix === undefined) router.use(handle);
        else router.use(item.prefix, handle);
      } else if (item.kind === 'route') {
        const route = router.route(item.path);
        item.handlers.forEach(({ method, error }, i) => {
          route[method](error ? errorHandler(built, `${id}.${i}`) : handler(built, `${id}.${i}`));
        });
      } else {
        const child = express.Router(item.options);
        declare(child, item.items);
        if (item.prefix === undefined) router.use(child);
        else router.use(item.prefix, child);
      }
    }
  };
  declare(built.app, spec.items);
  finish(built);
  return built;
}

/** The app as Express code, for a counterexample to read. */
function source(spec: AppSpec): string {
  const lines: string[] = [];
  if (spec.caseSensitive) lines.push("app.enable('case sensitive routing');");
  if (spec.strict) lines.push("app.enable('strict routing');");
  let next = 0;
  const at = (prefix: Prefix) =>
    prefix === undefined
      ? ''
      : `${prefix instanceof RegExp ? String(prefix) : JSON.stringify(prefix)}, `;
  const declare = (name: string, declared: readonly Item[]): void => {
    for (const item of declared) {
      const id = `h${next++}`;
      if (item.kind === 'use') {
        lines.push(`${name}.use(${at(item.prefix)}${item.error ? 'error ' : ''}${id});`);
      } else if (item.kind === 'route') {
        const handlers = item.handlers.map(
          ({ method, error }, i) => `.${method}(${error ? 'error ' : ''}${id}.${i})`,
        );
        lines.push(`${name}.route('${item.path}')${handlers.join('')};`);
      } else {
        lines.push(`const ${id} = express.Router(${JSON.stringify(item.options)});`);
        declare(id, item.items);
        lines.push(`${name}.use(${at(item.prefix)}${id});`);
      }
    }
  };
  declare('app', spec.items);
  lines.push('app.use(end);');
  return lines.join('\n');
}

describe('handlersFor against Express', () => {
  it('yields the handlers Express calls, in order, for random apps and requests', async () => {
    await fc.assert(
      fc.asyncProperty(
        appSpec.chain((spec) =>
          fc.tuple(
            fc.constant(spec),
            fc.array(fc.tuple(method, target(spec)), { minLength: 1, maxLength: 8 }),
          ),
        ),
        async ([spec, requests]) => {
          const built = build(spec);
          const running = await serve(built);
          try {
            for (const [verb, path] of requests) {
              const { ran, status } = await running.send(verb, path);
              const expected = predicted(built, verb, path);
              const message = `${verb} ${path}\n${source(spec)}`;
              const opaque = expected.indexOf('OPAQUE');
              if (opaque === -1) {
                assert.deepEqual(ran, expected, message);
              } else {
                // Here matching threw (`router` goes on with the error: only error handlers
                // run) or a Router answered OPTIONS: no handler runs from there on.
                assert.deepEqual(
                  ran.filter((id) => !id.startsWith('!')),
                  expected.slice(0, opaque),
                  message,
                );
                if (status === 400) assert.deepEqual(expected.slice(opaque), ['OPAQUE'], message);
              }
            }
          } finally {
            await running.close();
          }
        },
      ),
      { numRuns: 200, includeErrorInReport: true },
    );
  });
});

describe('handlersFor, matching only up to the last layer that may declare', () => {
  it('yields what the whole walk yields, up to its last declaration at least', () => {
    fc.assert(
      fc.property(
        appSpec.chain((spec) =>
          fc.tuple(fc.constant(spec), method, target(spec), fc.func(fc.boolean())),
        ),
        ([spec, verb, path, declares]) => {
          const built = build(spec);
          const declaring = (id: string) => id !== 'OPAQUE' && declares(id);
          const mayDeclare = holding((handle) => declaring(built.ids.get(handle) ?? '?'));
          const whole = predicted(built, verb, path);
          const lazy = predicted(built, verb, path, mayDeclare);
          const message = `${verb} ${path}\n${source(spec)}\ndeclaring: ${whole.filter(declaring).join()}`;
          assert.deepEqual(lazy, whole.slice(0, lazy.length), message);
          assert.deepEqual(whole.slice(lazy.length).filter(declaring), [], message);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('sees what is added to the stacks after it read them', () => {
    const built = probe();
    const { app } = built;
    app.use(handler(built, 'A'));
    const route = app.route('/x').all(handler(built, 'h'));
    const inner = express.Router();
    app.use(inner);
    const declaring = new Set(['A', 'B', 'C', 'D']);
    const mayDeclare = holding((handle) => declaring.has(built.ids.get(handle) ?? ''));
    const walk = () => predicted(built, 'GET', '/x', mayDeclare);
    assert.deepEqual(walk(), ['A']);
    route.all(handler(built, 'B'));
    assert.deepEqual(walk(), ['A', 'h', 'B']);
    inner.use(handler(built, 'C'));
    assert.deepEqual(walk(), ['A', 'h', 'B', 'C']);
    app.use(handler(built, 'D'));
    assert.deepEqual(walk(), ['A', 'h', 'B', 'C', 'D']);
    // Replaced in place, which no API of router does: seen too.
    const stack = (app.router as unknown as { stack: unknown[] }).stack;
    const other = express.Router().use(handler(built, 'F'));
    const index = stack.findIndex((layer) => built.ids.get((layer as Layer).handle) === 'D');
    stack[index] = other.stack[0];
    assert.deepEqual(walk(), ['A', 'h', 'B', 'C']);
  });
});

describe('handlersFor, documented edge cases', () => {
  it('does not see into a mounted app', async () => {
    const built = probe();
    const sub = express();
    sub.use(handler(built, 'inner'));
    built.app.use('/sub', sub);
    finish(built);
    const { ran, predicted } = await compare(built, 'GET', '/sub/x');
    assert.deepEqual(ran, ['inner', 'end']);
    // One stand-in for the whole app, of which nothing is yielded.
    assert.deepEqual(predicted, ['?', 'end']);
  });

  it('stops at OPAQUE where matching throws (a malformed percent-encoding)', async () => {
    const built = probe();
    built.app.use(handler(built, 'first'));
    built.app.get('/users/:id', handler(built, 'show'));
    built.app.use(handler(built, 'after'));
    built.app.use(errorHandler(built, 'error'));
    finish(built);
    const { ran, predicted } = await compare(built, 'GET', '/users/%E0');
    assert.deepEqual(ran, ['first', '!error']);
    assert.deepEqual(predicted, ['first', 'OPAQUE']);
  });
});

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

  it('yields OPAQUE for a param callback, only before a layer router takes', async () => {
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

describe('router', () => {
  it('is the major version whose internals routing.ts reads', () => {
    const fromExpress = createRequire(createRequire(import.meta.url).resolve('express'));
    const { version } = fromExpress('router/package.json') as { version: string };
    assert.equal(
      version.split('.')[0],
      '2',
      `Express now runs router ${version}: src/express/routing.ts reads router 2's internals ` +
        '(stack, layer.match, route._handlesMethod, params) to decide which requireAuth ' +
        'applies; re-check it against this version before changing this test.',
    );
  });
});
