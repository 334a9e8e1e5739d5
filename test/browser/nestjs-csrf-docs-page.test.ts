// The docs page @nestjs/swagger serves for a Nest application on Fastify, in Chromium: Authorize
// with a Bearer token tries a Bearer route; a signed-in browser (a cookie key and the CSRF token
// cookie, as a sign-in sets them) tries an unsafe route, and the page's CSRF interceptor sends the
// token back in its header, so the CSRF check passes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Controller, Get, HttpCode, Module, Post } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { APIKeyCookie, HttpBearer } from '../../src/index.js';
import {
  Auth,
  csrfRequestInterceptor,
  documentSecurity,
  Principal,
  Vouch,
  VouchModule,
} from '../../src/nestjs/index.js';
import { adapterOf, createNest } from '../helpers/nest.js';
import { openChromium, PAGE_TEST_MS } from './swagger-ui.js';

const bearer = new HttpBearer({ tokens: new Map([['browser-token', 'ann']]) });
const cookieKey = new APIKeyCookie({
  paramName: 'X-API-KEY',
  keys: new Map([['cookie-key', { name: 'cookie app' }]]),
});

@Controller('api')
class ApiController {
  @Get('bearer') bearer(@Principal(bearer) token: Principal<typeof bearer>) {
    return { token };
  }

  @Post('cookiekey')
  @HttpCode(200)
  @Auth(cookieKey)
  cookieKey(@Principal(cookieKey) application: Principal<typeof cookieKey>) {
    return { hello: application.name };
  }
}

@Module({
  imports: [
    VouchModule.forRoot({
      auth: bearer,
      csrf: { secret: 'a docs page test secret', trustedOrigins: ['https://app.example'] },
    }),
  ],
  controllers: [ApiController],
})
class AppModule {}

test(
  'the Nest docs page on Fastify authorizes, and sends the CSRF token',
  { timeout: PAGE_TEST_MS },
  async (t) => {
    const app = await createNest(AppModule, adapterOf('fastify'));
    t.after(() => app.close());
    SwaggerModule.setup(
      'api/docs',
      app,
      () => documentSecurity(app, SwaggerModule.createDocument(app, new DocumentBuilder().build())),
      { swaggerOptions: { requestInterceptor: csrfRequestInterceptor() } },
    );
    await app.listen(0, '127.0.0.1');
    const origin = await app.getUrl();
    const session = await openChromium(t, origin, 'nestjs-fastify-docs-page');
    if (session === undefined) return;
    const { context, docs, pageErrors, offOrigin, step } = session;

    await step('Authorize with the token, then GET /api/bearer shows 200', async () => {
      await docs.open(`${origin}/api/docs`);
      await docs.authorize('bearerAuth', { '#auth-bearer-value': 'browser-token' });
      const op = await docs.tryOut('get', '/api/bearer');
      const outcome = await docs.execute(op, '/api/bearer');
      assert.equal(outcome.status, '200', outcome.body);
      assert.deepEqual(JSON.parse(outcome.body), { token: 'ann' });
    });

    await step(
      'with the cookie key and its CSRF token, POST /api/cookiekey shows 200',
      async () => {
        const { token } = app.get(Vouch).csrfProtection?.issue('cookie-key') ?? { token: '' };
        await context.addCookies([
          { name: 'X-API-KEY', value: 'cookie-key', url: origin },
          { name: 'csrftoken', value: token, url: origin },
        ]);
        const op = await docs.tryOut('post', '/api/cookiekey');
        const outcome = await docs.execute(op, '/api/cookiekey');
        await docs.shot('cookiekey', op);
        assert.equal(outcome.status, '200', outcome.body);
        assert.equal(outcome.requestHeaders['x-csrftoken'], token);
        assert.deepEqual(JSON.parse(outcome.body), { hello: 'cookie app' });
      },
    );

    await step('the page raised no script errors and called nothing outside the service', () => {
      assert.deepEqual(pageErrors, []);
      assert.deepEqual(offOrigin, []);
      return Promise.resolve();
    });
  },
);
