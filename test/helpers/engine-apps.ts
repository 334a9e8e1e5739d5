// The same small app on each engine (Nest on both its platforms), on a real socket (HTTP, or HTTPS ended in Node with client
// certificates requested), for what only a real connection shows: its peer and its certificate.
// Every route answers `{ auth, publicUrl, certificate }`: what vouch accepted, and the public URL
// and client certificate (its source and thumbprint, or why it is unusable) the edge gives the
// route's request.
import { once } from 'node:events';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer, type ServerOptions } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { Controller, Get, Module, Req } from '@nestjs/common';
import type { HttpsOptions } from '@nestjs/common/interfaces/external/https-options.interface.js';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import type { Authenticator, Edge, RequestView } from '../../src/index.js';
import { requireAuth as expressAuth, requestView as expressView } from '../../src/express/index.js';
import { vouch } from '../../src/fastify/index.js';
import { requireAuth as honoAuth, requestView as honoView } from '../../src/hono/index.js';
import { Auth, Principal, VouchModule } from '../../src/nestjs/index.js';
import { requestView as nestView } from '../../src/nestjs/request-view.js';
import { createNest } from './nest.js';

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
  readonly name: string;
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

/** A Nest application on `platform`, its routes the handlers of one controller. */
function nest(platform: 'express' | 'fastify'): EngineApp {
  return {
    name: `Nest on ${platform === 'express' ? 'Express' : 'Fastify'}`,
    async start(routes, { edge, tls }) {
      class Routes {}
      const prototype = Routes.prototype as unknown as Record<string, unknown>;
      routes.forEach(({ path, auth }, index) => {
        const name = `route${String(index)}`;
        prototype[name] = (value: unknown, request: object) =>
          answer(edge, nestView(request), value);
        const descriptor = Object.getOwnPropertyDescriptor(prototype, name) as PropertyDescriptor;
        Get(path)(prototype, name, descriptor);
        if (auth !== undefined) Auth(auth as Authenticator)(prototype, name, descriptor);
        Principal()(prototype, name, 0);
        Req()(prototype, name, 1);
      });
      Controller()(Routes);
      class App {}
      Module({ imports: [VouchModule.forRoot({ csrf: false })], controllers: [Routes] })(App);
      // Nest's Express platform takes TLS options with the application's, Fastify's its own.
      const https = tls as HttpsOptions | undefined;
      const options = {
        logger: false as const,
        abortOnError: false,
        ...(https && { httpsOptions: https }),
      };
      const app =
        platform === 'express'
          ? // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment -- Nest declares its options as a class
            await NestFactory.create(App, new ExpressAdapter(), options)
          : await createNest(App, new FastifyAdapter(https && { https }));
      await app.listen(0, '127.0.0.1');
      const server = app.getHttpServer() as Server;
      return {
        port: (server.address() as AddressInfo).port,
        close: async () => {
          server.closeAllConnections();
          await app.close();
        },
      };
    },
  };
}

/** Fastify, Express, Hono (on @hono/node-server), and Nest on Express and on Fastify. */
export const ENGINES: readonly EngineApp[] = [
  fastify,
  expressApp,
  hono,
  nest('express'),
  nest('fastify'),
];
