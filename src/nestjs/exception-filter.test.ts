import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  Catch,
  Controller,
  Get,
  ImATeapotException,
  Module,
  ServiceUnavailableException,
  UnauthorizedException,
  type ArgumentsHost,
  type ExceptionFilter,
  type Type,
} from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import {
  AuthenticationError,
  AuthorizationError,
  HttpBearer,
  StoreUnavailableError,
} from '../index.js';
import { adapterOf, createNest, KeptLogs, PLATFORMS, startNest } from '../../test/helpers/nest.js';
import { Auth, VouchModule } from './index.js';

class TeapotError extends Error {}

const bearer = new HttpBearer({
  authenticate: (_request, token) => {
    if (token === 'teapot') throw new TeapotError('hook');
    if (token === 'nest') throw new ImATeapotException({ detail: 'from Nest' });
    if (token === 'expired') throw new AuthenticationError('Token expired');
    if (token === 'down') throw new StoreUnavailableError('the token table is locked');
    return token === 'good' ? 'ann' : undefined;
  },
});

@Controller()
class Routes {
  @Get('private') list() {
    return { ok: true };
  }

  @Get('public') @Auth(null) open() {
    throw new AuthorizationError();
  }
}

/** What the application's filters saw. */
const seen: unknown[] = [];

/** The application's own filter: answers and keeps what it caught. */
function answering(status: number): ExceptionFilter {
  return {
    catch(error: unknown, host: ArgumentsHost) {
      seen.push(error);
      // Express's response and Fastify's reply alike.
      const response = host
        .switchToHttp()
        .getResponse<{ status(code: number): { send(body: object): void } }>();
      response.status(status).send({ caught: (error as Error).constructor.name });
    },
  };
}

@Catch(TeapotError)
class TeapotFilter {}
@Catch()
class CatchAll {}
@Catch(UnauthorizedException)
class Unauthorized {}

/** Gives a filter class the behaviour of {@link answering}. */
function filter(decorated: Type, status: number): ExceptionFilter {
  return Object.assign(Object.create(decorated.prototype as object) as object, answering(status));
}

function appModule(...providers: { provide: string; useValue: unknown }[]): Type {
  @Module({
    imports: [VouchModule.forRoot({ auth: bearer, log: () => undefined })],
    controllers: [Routes],
  })
  class AppModule {}
  @Module({ providers })
  class Filters {}
  @Module({ imports: [AppModule, Filters] })
  class Root {}
  return providers.length === 0 ? AppModule : Root;
}

for (const platform of PLATFORMS) {
  describe(`exception filters on Nest on ${platform}`, () => {
    const start = async (
      t: Parameters<typeof startNest>[0],
      filters: ExceptionFilter[] = [],
      module = appModule(),
    ) => {
      seen.length = 0;
      const running = await startNest(t, platform, module, {
        setup: (app) => app.useGlobalFilters(...filters),
      });
      return (path: string, token?: string) =>
        fetch(`${running.origin}${path}`, {
          headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
        });
    };

    it('a filter of app.useGlobalFilters() receives the error a hook threw, as thrown', async (t) => {
      const get = await start(t, [filter(TeapotFilter, 418)]);
      const answer = await get('/private', 'teapot');
      assert.equal(answer.status, 418);
      assert.deepEqual(await answer.json(), { caught: 'TeapotError' });
      assert.ok(seen[0] instanceof TeapotError);
      assert.equal(seen[0].message, 'hook');
    });

    it('so does a catch-all @Catch() filter', async (t) => {
      const get = await start(t, [filter(CatchAll, 500)]);
      assert.deepEqual(await (await get('/private', 'teapot')).json(), { caught: 'TeapotError' });
      assert.ok(seen[0] instanceof TeapotError);
    });

    it('so does an APP_FILTER of a module imported after VouchModule', async (t) => {
      const get = await start(
        t,
        [],
        appModule({ provide: APP_FILTER, useValue: filter(TeapotFilter, 418) }),
      );
      assert.equal((await get('/private', 'teapot')).status, 418);
      assert.ok(seen[0] instanceof TeapotError);
    });

    it("vouch's refusal is Nest's UnauthorizedException, its challenge kept in any filter's answer", async (t) => {
      const get = await start(t, [filter(Unauthorized, 401)]);
      const answer = await get('/private');
      assert.equal(answer.status, 401);
      assert.equal(answer.headers.get('www-authenticate'), 'Bearer realm="api"');
      assert.deepEqual(await answer.json(), { caught: 'UnauthorizedException' });
      const exception = seen[0] as UnauthorizedException;
      assert.deepEqual(exception.getResponse(), { detail: 'Unauthorized' });
      assert.equal((exception.cause as AuthenticationError).code, 'VOUCH_ERR_UNAUTHENTICATED');
    });

    it("without filters of the application's, vouch's own answer the contract", async (t) => {
      const get = await start(t);
      const expired = await get('/private', 'expired');
      assert.equal(expired.status, 401);
      assert.equal(
        expired.headers.get('www-authenticate'),
        'Bearer realm="api", error="invalid_token"',
      );
      assert.deepEqual(await expired.json(), { detail: 'Token expired' });
      const teapot = await get('/private', 'teapot');
      assert.equal(teapot.status, 500);
      assert.deepEqual(await teapot.json(), { detail: 'Internal Server Error' });
    });

    it('a vouch error a handler throws answers as the contract says, without challenges', async (t) => {
      const get = await start(t);
      const answer = await get('/public');
      assert.equal(answer.status, 403);
      assert.equal(answer.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.deepEqual(await answer.json(), { detail: 'Forbidden' });
    });

    it("Nest's own HttpException thrown by a hook is Nest's to answer", async (t) => {
      const get = await start(t);
      const answer = await get('/private', 'nest');
      assert.equal(answer.status, 418);
      assert.deepEqual(await answer.json(), { detail: 'from Nest' });
    });
  });
}

describe('server faults', () => {
  it("are logged through the module's log, or Nest's logger as vouch", async (t) => {
    @Module({ imports: [VouchModule.forRoot({ auth: bearer })], controllers: [Routes] })
    class Logged {}
    const logs = new KeptLogs();
    const { origin } = await startNest(t, 'express', Logged, { logger: logs });
    const answer = await fetch(`${origin}/private`, {
      headers: { authorization: 'Bearer teapot' },
    });
    assert.equal(answer.status, 500);
    assert.deepEqual(
      logs.lines.filter((line) => line.includes('vouch')),
      ['error vouch: request failed'],
    );
  });
});

describe('exceptionFilter: false', () => {
  const logged: string[] = [];
  const unfiltered = VouchModule.forRoot({
    auth: bearer,
    exceptionFilter: false,
    log: (message) => logged.push(message),
  });

  /** The application: its own filters, if any, in its root module, which Nest tries last. */
  function rootModule(...filters: ExceptionFilter[]): Type {
    @Module({
      imports: [unfiltered],
      controllers: [Routes],
      providers: filters.map((useValue) => ({ provide: APP_FILTER, useValue })),
    })
    class Root {}
    return Root;
  }

  for (const platform of PLATFORMS) {
    describe(`on Nest on ${platform}`, () => {
      const start = async (t: Parameters<typeof startNest>[0], module: Type) => {
        seen.length = 0;
        logged.length = 0;
        const { origin } = await startNest(t, platform, module);
        return (path: string, token?: string) =>
          fetch(`${origin}${path}`, {
            headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
          });
      };

      it("hands the application's own catch-all filter every error, vouch's as HttpExceptions", async (t) => {
        const get = await start(t, rootModule(filter(CatchAll, 599)));
        const refused = await get('/private');
        assert.equal(refused.status, 599);
        assert.equal(refused.headers.get('www-authenticate'), 'Bearer realm="api"');
        assert.ok(seen[0] instanceof UnauthorizedException);

        // What a hook throws of vouch's: Nest's exception, the error its cause.
        const expired = await get('/private', 'expired');
        assert.equal(
          expired.headers.get('www-authenticate'),
          'Bearer realm="api", error="invalid_token"',
        );
        const unauthorized = seen[1] as UnauthorizedException;
        assert.ok(unauthorized instanceof UnauthorizedException);
        assert.deepEqual(unauthorized.getResponse(), { detail: 'Token expired' });
        assert.ok(unauthorized.cause instanceof AuthenticationError);

        const down = await get('/private', 'down');
        assert.equal(down.headers.get('retry-after'), '5');
        assert.ok(seen[2] instanceof ServiceUnavailableException);
        assert.deepEqual(logged, ['vouch: credential store unavailable']);

        // Anything else a hook throws, and vouch's errors a handler throws: as thrown.
        assert.deepEqual(await (await get('/private', 'teapot')).json(), {
          caught: 'TeapotError',
        });
        assert.ok(seen[3] instanceof TeapotError);
        await get('/public');
        assert.ok(seen[4] instanceof AuthorizationError);
      });

      it("leaves Nest's own filter to answer vouch's errors as the contract says", async (t) => {
        const get = await start(t, rootModule());
        const expired = await get('/private', 'expired');
        assert.equal(expired.status, 401);
        assert.equal(
          expired.headers.get('www-authenticate'),
          'Bearer realm="api", error="invalid_token"',
        );
        assert.deepEqual(await expired.json(), { detail: 'Token expired' });
        const down = await get('/private', 'down');
        assert.equal(down.status, 503);
        assert.equal(down.headers.get('retry-after'), '5');
        assert.deepEqual(await down.json(), { detail: 'Service Unavailable' });
        // What is not vouch's is Nest's to answer: its own 500.
        const teapot = await get('/private', 'teapot');
        assert.equal(teapot.status, 500);
        assert.deepEqual(await teapot.json(), {
          statusCode: 500,
          message: 'Internal server error',
        });
      });
    });
  }

  it('refuses exceptionHandlers at start-up, which only its filter would call', async () => {
    @Module({
      imports: [
        VouchModule.forRoot({
          auth: bearer,
          exceptionFilter: false,
          exceptionHandlers: [[TeapotError, () => undefined]],
        }),
      ],
      controllers: [Routes],
    })
    class Handled {}
    await assert.rejects(createNest(Handled, adapterOf('express')), {
      code: 'VOUCH_ERR_CONFIGURATION',
      message: /exceptionHandlers/,
    });
  });
});
