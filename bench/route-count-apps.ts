// The apps `npm run bench:routes` times: on each engine, N routes with no authentication, and the
// same N routes behind vouch in the two shapes an application has them: one app-wide requireAuth
// before plain routes, or a requireAuth on each route. Five routes a resource, the first of them
// public (`requireAuth(null)`, `auth: null`), so that the declaration deciding a request must be
// found among others; the request timed goes to the last route. The three apps of an engine and
// count share a process and a port, the first segment of the path picking the app, so that each
// app has its N routes and nothing else.
import { getRequestListener } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import { Hono, type Context } from 'hono';
import type { RequestListener } from 'node:http';
import { requireAuth as expressAuth } from '../src/express/index.js';
import { vouch } from '../src/fastify/index.js';
import { requireAuth as honoAuth } from '../src/hono/index.js';
import { BODY, bearer, bearerHeaders, send } from './apps.js';
import type { Shot } from './load.js';

export const ENGINES = ['Express', 'Hono', 'Fastify'] as const;
export type Engine = (typeof ENGINES)[number];
export const COUNTS = [10, 100, 1000] as const;
/** The app without authentication, then vouch's two shapes; each app's paths start with its own. */
const APPS = ['noauth', 'app-wide', 'per-route'] as const;
type AppName = (typeof APPS)[number];
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** `count` routes (a multiple of 5) under `/<app>`: `GET /<app>/r<i>` is public. */
function routeTable(app: AppName, count: number) {
  const routes: { method: Method; path: string; open: boolean }[] = [];
  for (let i = 0; i < count / 5; i++) {
    const [list, item] = [`/${app}/r${i}`, `/${app}/r${i}/:id`];
    routes.push(
      { method: 'GET', path: list, open: true },
      { method: 'POST', path: list, open: false },
    );
    for (const method of ['PUT', 'DELETE', 'GET'] as const) {
      routes.push({ method, path: item, open: false });
    }
  }
  return routes;
}

/** What a user would write there: nothing, the route's own declaration, or the public one. */
function guardOf(app: AppName, open: boolean): 'none' | 'bearer' | 'public' {
  if (app === 'noauth') return 'none';
  if (open) return 'public';
  return app === 'per-route' ? 'bearer' : 'none';
}

function expressListener(app: AppName, count: number): RequestListener {
  const server = express();
  // As in bench/apps.ts: the engines answer the same bytes.
  server.disable('x-powered-by');
  server.set('etag', false);
  if (app === 'app-wide') server.use(expressAuth(bearer));
  for (const { method, path, open } of routeTable(app, count)) {
    const guard = guardOf(app, open);
    const route = server.route(path);
    const verb = method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    if (guard === 'none') route[verb](send);
    else route[verb](expressAuth(guard === 'public' ? null : bearer), send);
  }
  return server;
}

function honoListener(app: AppName, count: number): RequestListener {
  const server = new Hono();
  const json = (c: Context) => c.json({ ok: true });
  if (app === 'app-wide') server.use(honoAuth(bearer));
  for (const { method, path, open } of routeTable(app, count)) {
    const guard = guardOf(app, open);
    if (guard === 'none') server.on(method, path, json);
    else server.on(method, path, honoAuth(guard === 'public' ? null : bearer), json);
  }
  const listener = getRequestListener(server.fetch, { hostname: '127.0.0.1' });
  return (request, response) => void listener(request, response);
}

async function fastifyListener(app: AppName, count: number): Promise<RequestListener> {
  const server = Fastify({ logger: false });
  if (app !== 'noauth') await server.register(vouch, app === 'app-wide' ? { auth: bearer } : {});
  const handler = async () => ({ ok: true });
  for (const { method, path, open } of routeTable(app, count)) {
    const guard = guardOf(app, open);
    const auth = guard === 'none' ? {} : { auth: guard === 'public' ? null : bearer };
    server.route({ method, url: path, handler, ...auth });
  }
  await server.ready();
  // The handler Fastify gives the server it makes, routing included.
  return (request, response) => {
    server.routing(request, response);
  };
}

const builders = { Express: expressListener, Hono: honoListener, Fastify: fastifyListener };

/** One listener serving the three apps of `engine` with `count` routes each. */
export async function routeCountListener(engine: Engine, count: number): Promise<RequestListener> {
  const listeners = new Map<string, RequestListener>();
  for (const app of APPS) listeners.set(app, await builders[engine](app, count));
  return (request, response) => {
    const url = request.url ?? '/';
    const listener = listeners.get(url.slice(1, url.indexOf('/', 1)));
    if (listener === undefined) response.writeHead(404).end();
    else listener(request, response);
  };
}

/** vouch's two shapes, as the labels name them. */
export const SHAPES = ['app-wide', 'per route'] as const;

/** The request timed on each app of `engine` with `count` routes, the baseline first. */
export function routeCountShots(engine: Engine, count: number): readonly [Shot, Shot, Shot] {
  const last = `r${count / 5 - 1}/7`;
  const routes = `${count.toLocaleString('en-US')} routes`;
  const shot = (app: AppName, label: string) => ({
    label,
    path: `/${app}/${last}`,
    headers: bearerHeaders,
    body: BODY,
    credential: app === 'noauth' ? undefined : 'authorization',
  });
  const [appWide, perRoute] = SHAPES.map((shape) => `vouch on ${engine}, ${routes}, ${shape}`);
  return [
    shot('noauth', `${engine}, ${routes}, no auth`),
    shot('app-wide', appWide!),
    shot('per-route', perRoute!),
  ];
}

/** A public route of a vouch app: it answers without a credential. */
export function publicPath(app: 'app-wide' | 'per-route', count: number): string {
  return `/${app}/r${count / 5 - 1}`;
}

/**
 * The targets, each with its shape's route and the baseline at every count: on each engine, in
 * each shape, vouch's ratio to its baseline with 1,000 routes at least 0.9× that with 10, compared
 * round by round.
 */
export const routeCountTargets = ENGINES.flatMap((engine) =>
  SHAPES.map((shape, i) => {
    const shotsAt = (count: number) => routeCountShots(engine, count);
    const shots = COUNTS.map((count) => shotsAt(count)[i + 1]!);
    const baselines = COUNTS.map((count) => shotsAt(count)[0]);
    const [first, second] = [shots.at(-1)!, shots[0]!];
    return { engine, shape, shots, baselines, first, second, times: 0.9, paired: true };
  }),
);
