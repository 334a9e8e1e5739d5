import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { All, Controller, Get, Module, Param, Post } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { APIKeyHeader, HttpBearer } from '../index.js';
import { MemorySessionStore, SessionAuth } from '../session/index.js';
import { PLATFORMS, startNest } from '../../test/helpers/nest.js';
import { Auth, documentSecurity, VouchModule } from './index.js';

const bearer = new HttpBearer({ tokens: new Map([['t', 'ann']]) });
const apiKey = new APIKeyHeader({ paramName: 'X-API-Key', keys: new Map([['k', 'app']]) });
const session = new SessionAuth({ store: new MemorySessionStore() });

@Controller('pets')
class Pets {
  @Get() list() {}
  @Get(':id') one(@Param('id') id: string) {
    return id;
  }
  @Post() @Auth(session) create() {}
  @Get('open/health') @Auth(null) health() {}
}

@Controller('events')
@Auth([apiKey, bearer], { scopes: ['events:read'] })
class Events {
  @All('any') any() {}
}

@Module({
  imports: [
    VouchModule.forRoot({
      auth: bearer,
      csrf: { secret: 'a document test secret', trustedOrigins: ['https://app.example'] },
    }),
  ],
  controllers: [Pets, Events],
})
class AppModule {}

interface Operation {
  security?: unknown;
  responses: Record<string, unknown>;
}
type Paths = Record<string, Record<string, Operation>>;

for (const platform of PLATFORMS) {
  describe(`documentSecurity on Nest on ${platform}`, () => {
    it("fills the operations of SwaggerModule's document from the declarations", async (t) => {
      const { app } = await startNest(t, platform, AppModule);
      const built = SwaggerModule.createDocument(app, new DocumentBuilder().build());
      // A path no controller serves is left as it is.
      built.paths['/elsewhere'] = { get: { responses: { 200: { description: 'OK' } } } };
      const before = structuredClone(built);
      const document = documentSecurity(app, built);
      assert.deepEqual(built, before, 'the given document is not changed');
      const paths = document.paths as unknown as Paths;
      const operation = (path: string, method: string) => paths[path]?.[method] as Operation;

      assert.deepEqual(operation('/pets', 'get').security, [{ bearerAuth: [] }]);
      assert.deepEqual(operation('/pets/{id}', 'get').security, [{ bearerAuth: [] }]);
      assert.deepEqual(Object.keys(operation('/pets', 'get').responses), ['200', '400', '401']);
      assert.deepEqual(operation('/pets', 'post').security, [{ sessionAuth: [] }]);
      assert.ok('403' in operation('/pets', 'post').responses, 'CSRF can refuse it');
      assert.deepEqual(operation('/pets/open/health', 'get').security, []);
      assert.deepEqual(Object.keys(operation('/pets/open/health', 'get').responses), ['200']);
      // A route of every method: each operation Swagger lists for it.
      for (const method of ['get', 'post', 'delete']) {
        assert.deepEqual(operation('/events/any', method).security, [
          { 'apiKeyHeader_X-API-Key': ['events:read'] },
          { bearerAuth: ['events:read'] },
        ]);
      }
      assert.equal(operation('/elsewhere', 'get').security, undefined);
      assert.deepEqual(document.components?.securitySchemes, {
        bearerAuth: { type: 'http', scheme: 'bearer' },
        sessionAuth: { type: 'apiKey', in: 'cookie', name: 'sessionid' },
        'apiKeyHeader_X-API-Key': { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      });
    });
  });
}
