// The same small app on each engine, on a real socket (HTTP, or HTTPS ended in Node with client
// certificates requested), for what only a real connection shows: its peer and its certificate.
// Every route answers `{ auth, publicUrl, certificate }`: what vouch accepted, and the public URL
// and client certificate (its source and thumbprint, or why it is unusable) the edge gives the
// route's request.
import { once } from 'node:events';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer, type ServerOptions } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import type { Authenticator, Edge, RequestView } from '../../src/index.js';
import { requireAuth as expressAuth, requestView as expressView } from '../../src/express/index.js';
import { vouch } from '../../src/fastify/index.js';
import { requireAuth as honoAuth, requestView as honoView } from '../../src/hono/index.js';

/** GET `path`, guarded by `auth` (a list: any of them), or by nothing. */
export interface AppRoute {
  readonly path: string;
  readonly auth?: Authenticator | readonly Authenticator[];
}

/** What a route answers. */
export interface RouteAnswer {
  readonly auth: unknown;
  readonly publicUrl: string | null;
  readonly certificate: { from: string; x5tS256: string } | { unusable: string } | null;
}

function answer(edge: Edge, view: RequestView, auth: unknown): RouteAnswer {
  const found = edge.clientCertificate(view);
  const certificate =
    found === undefined || 'unusable' in found
      ? (found ?? null)
      : { from: found.from, x5tS256: found.x5tS256 };
  return { auth: auth ?? null, publicUrl: edge.publicUrl(view) ?? null, certificate };
}

/** How the app is served: its edge, and TLS options (`requestCert`, `ca`, …) for HTTPS. */
export interface AppOptions {
  readonly edge: Edge;
  readonly tls?: ServerOptions;
}

/** A running app: its port, and how to stop it (with every connection). */
export interface RunningApp {
  readonly port: number;
  close(): Promise<void>;
}

/** One engine: starts the app on 127.0.0.1. */
export interface EngineApp {
  readonly name: 'Fastify' | 'Express' | 'Hono';
  start(routes: readonly AppRoute[], options: AppOptions): Promise<RunningApp>;
}

async function listen(server: Server): Promise<RunningApp> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

const fastify: EngineApp = {
  name: 'Fastify',
  async start(routes, { edge, tls }) {
    const app = Fastify({
      serverFactory: (handler) =>
        tls === undefined ? createHttpServer(handler) : createHttpsServer(tls, handler),
    });
    await app.register(vouch, { csrf: false });
    for (const { path, auth = null } of routes) {
      // The Fastify request is the view vouch reads: its `socket` is the connection's.
      app.get(path, { auth }, (request) => answer(edge, request, request.auth));
    }
    await app.listen({ port: 0, host: '127.0.0.1' });
    return {
      port: (app.server.address() as AddressInfo).port,
      close: async () => {
        app.server.closeAllConnections();
        await app.close();
      },
    };
  },
};

const expressApp: EngineApp = {
  name: 'Express',
  start(routes, { edge, tls }) {
    const app = express();
    for (const { path, auth = null } of routes) {
      app.get(path, expressAuth(auth as Authenticator[]), (req, res) => {
        res.json(answer(edge, expressView(req), req.auth));
      });
    }
    return listen(tls === undefined ? createHttpServer(app) : createHttpsServer(tls, app));
  },
};

const hono: EngineApp = {
  name: 'Hono',
  start(routes, { edge, tls }) {
    const app = new Hono();
    for (const { path, auth = null } of routes) {
      app.get(path, honoAuth(auth as Authenticator[]), (c) =>
        c.json(answer(edge, honoView(c), c.get('auth'))),
      );
    }
    const server = createAdaptorServer({
      fetch: app.fetch,
      ...(tls === undefined ? {} : { createServer: createHttpsServer, serverOptions: tls }),
    }) as Server;
    return listen(server);
  },
};

/** Fastify, Express and Hono (on @hono/node-server). */
export const ENGINES: readonly EngineApp[] = [fastify, expressApp, hono];
