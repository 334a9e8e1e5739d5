// The contract table on NestJS: VouchModule.forRoot for the app, @Auth on controllers (the
// groups) and handlers (the routes), built once for each of Nest's two platforms.
import {
  All,
  Controller,
  Delete,
  Get,
  Header,
  HttpCode,
  Module,
  Options,
  Post,
  Put,
  type ArgumentsHost,
} from '@nestjs/common';
import type { AbstractHttpAdapter } from '@nestjs/core';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createNest } from '../helpers/nest.js';
import {
  Auth,
  exceptionHandler,
  Principal,
  serveResourceMetadata,
  VouchModule,
} from '../../src/nestjs/index.js';
import type { AppDeclaration, GroupDeclaration, RouteDeclaration } from './declarations.js';
import { handlerAnswer, TeapotError } from './declarations.js';
import { listening, seenHeader, type Harness } from './harness.js';

const VERBS = { GET: Get, POST: Post, PUT: Put, DELETE: Delete, OPTIONS: Options, ALL: All };

/** A controller at `prefix` whose handlers answer what `routes` declare. */
function controllerOf(prefix: string, routes: readonly RouteDeclaration[]): new () => object {
  class Routes {}
  const prototype = Routes.prototype as unknown as Record<string, unknown>;
  routes.forEach((route, index) => {
    const name = `route${index}`;
    prototype[name] = (auth: unknown) => handlerAnswer(route, auth);
    const descriptor = Object.getOwnPropertyDescriptor(prototype, name) as PropertyDescriptor;
    const decorators: MethodDecorator[] = [VERBS[route.method](route.path), HttpCode(200)];
    if (route.cacheControl !== undefined)
      decorators.push(Header('cache-control', route.cacheControl));
    if (route.auth !== undefined) {
      decorators.push(
        Auth(route.auth, {
          ...(route.csrf === false && { csrf: false }),
          ...(route.scopes && { scopes: route.scopes }),
        }),
      );
    }
    for (const decorate of decorators) decorate(prototype, name, descriptor);
    Principal()(prototype, name, 0);
  });
  Controller(prefix)(Routes);
  return Routes;
}

/** A group and the groups in it, each a controller at its whole prefix with its own `@Auth`. */
function controllersOf(group: GroupDeclaration, parent = ''): (new () => object)[] {
  const prefix = parent + group.prefix;
  const controller = controllerOf(prefix, group.routes);
  Auth(group.auth)(controller);
  return [controller, ...(group.groups ?? []).flatMap((inner) => controllersOf(inner, prefix))];
}

/** Builds the declared app on one of Nest's platforms, on a real socket. */
export function nestHarness(
  name: string,
  adapter: () => AbstractHttpAdapter,
  teapot: (host: ArgumentsHost, status: number, detail: string) => unknown,
): Harness {
  return {
    name,
    combinesLines: false,
    shapes: new Set(),
    async start(declaration: AppDeclaration) {
      const { status, detail } = declaration.teapot;
      class AppModule {}
      Module({
        imports: [
          VouchModule.forRoot({
            auth: declaration.auth,
            csrf: declaration.csrf,
            exceptionHandlers: [
              exceptionHandler(TeapotError, (_error, host) => teapot(host, status, detail)),
            ],
            log: () => undefined,
          }),
        ],
        controllers: [
          controllerOf('', declaration.routes),
          ...declaration.groups.flatMap((group) => controllersOf(group)),
        ],
      })(AppModule);
      const app = await createNest(AppModule, adapter());
      // Middleware that hands on, as a logger does: Nest gives it Node's request and response.
      app.use(
        (req: IncomingMessage & { auth?: unknown }, res: ServerResponse, next: () => void) => {
          res.setHeader('x-seen-auth', seenHeader(req.auth));
          next();
        },
      );
      serveResourceMetadata(app, declaration.resource);
      await app.listen(0, '127.0.0.1');
      return listening(app.getHttpServer() as Server);
    },
  };
}
