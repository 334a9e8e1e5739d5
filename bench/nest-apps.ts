// The Nest apps `npm run bench` times, on each of Nest's two platforms: no auth, Bearer through
// vouch, and Bearer through @nestjs/passport with passport-http-bearer, each wired as its docs
// show it, on the handler. Each is a Nest application of its own, so that neither vouch's module
// (its request hook runs for every route of the app) nor the passport module weighs on another's
// route; the three share a process and a port, the first segment of the path picking the app.
import { Controller, Get, Injectable, Module, UseGuards, type Type } from '@nestjs/common';
import { AuthGuard, PassportModule, PassportStrategy } from '@nestjs/passport';
import type { Express } from 'express';
import type { FastifyInstance } from 'fastify';
import type { RequestListener } from 'node:http';
import { Strategy } from 'passport-http-bearer';
import { Auth, VouchModule } from '../src/nestjs/index.js';
import { adapterOf, createNest, type Platform } from '../test/helpers/nest.js';
import { bearer, caller, isToken, routes } from './apps.js';

// The paths are the same on both platforms.
const { nest: open, nestBearer: withVouch, nestPassport: withPassport } = routes;

@Controller()
class OpenController {
  @Get(open.path)
  ok() {
    return { ok: true };
  }
}

@Controller()
class VouchController {
  @Get(withVouch.path)
  @Auth(bearer)
  ok() {
    return { ok: true };
  }
}

/** passport-http-bearer's verify, as a Nest strategy: the caller, or `false` for a wrong token. */
@Injectable()
class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  validate(token: string) {
    return isToken(token) ? caller : false;
  }
}

@Controller()
class PassportController {
  @Get(withPassport.path)
  @UseGuards(AuthGuard('bearer'))
  ok() {
    return { ok: true };
  }
}

@Module({ controllers: [OpenController] })
class OpenModule {}

@Module({ imports: [VouchModule.forRoot()], controllers: [VouchController] })
class VouchAppModule {}

@Module({
  imports: [PassportModule],
  providers: [BearerStrategy],
  controllers: [PassportController],
})
class PassportAppModule {}

/** Each app by the first segment of its route's path. */
const modules = new Map<string, Type>([
  [open.path.split('/')[1]!, OpenModule],
  [withVouch.path.split('/')[1]!, VouchAppModule],
  [withPassport.path.split('/')[1]!, PassportAppModule],
]);

/** One listener serving the three Nest apps on `platform`, and a way to close them. */
export async function nestListener(platform: Platform) {
  const listeners = new Map<string, RequestListener>();
  const closers: (() => Promise<void>)[] = [];
  for (const [segment, module] of modules) {
    const app = await createNest(module, adapterOf(platform));
    await app.init();
    closers.push(() => app.close());
    if (platform === 'express') {
      const express = app.getHttpAdapter().getInstance() as Express;
      // As in bench/apps.ts: nothing computed or sent that the Fastify apps do not.
      express.disable('x-powered-by');
      express.set('etag', false);
      listeners.set(segment, express);
    } else {
      const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
      await fastify.ready();
      listeners.set(segment, (request, response) => {
        fastify.routing(request, response);
      });
    }
  }
  const listener: RequestListener = (request, response) => {
    const app = listeners.get((request.url ?? '/').split('/', 2)[1]!);
    if (app === undefined) response.writeHead(404).end();
    else app(request, response);
  };
  const close = async () => {
    for (const closeApp of closers) await closeApp();
  };
  return { listener, close };
}
