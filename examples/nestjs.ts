import 'reflect-metadata';
import { Controller, Get, Module, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { APIKeyHeader, HttpBearer } from 'vouch';
import {
  Auth,
  csrfRequestInterceptor,
  documentSecurity,
  persistTokensOnly,
  Principal,
  VouchModule,
} from 'vouch/nestjs';

const applications = new Map([['demo-key', { name: 'demo app' }]]);

const bearer = new HttpBearer({
  tokens: new Map([[process.env.API_TOKEN ?? 'change-me', 'admin']]), // static, constant-time
});
const apiKey = new APIKeyHeader({
  paramName: 'X-API-Key',
  authenticate: (_request, key) => applications.get(key),
});

@Controller('api')
class ApiController {
  @Get('bearer') // every route needs the Bearer token (the module's auth)…
  bearer(@Principal(bearer) token: Principal<typeof bearer>) {
    return { token };
  }

  @Get('headerkey')
  @Auth(apiKey) // …this one takes an API key instead…
  headerKey(@Principal(apiKey) application: Principal<typeof apiKey>) {
    return { hello: application.name };
  }

  @Get('health')
  @Auth(null) // …and this one nothing
  health() {
    return { status: 'ok' };
  }
}

@Module({ imports: [VouchModule.forRoot({ auth: bearer })], controllers: [ApiController] })
export class AppModule {}

/** The application on Nest's default platform (Express), its docs page at /api/docs. */
export async function createApp(): Promise<INestApplication> {
  const app = await NestFactory.create(AppModule, { logger: ['error', 'warn'] });
  // The description Nest's Swagger module builds from the controllers; vouch adds the security.
  const config = new DocumentBuilder().setTitle('On NestJS').setVersion('1.0.0').build();
  SwaggerModule.setup(
    'api/docs',
    app,
    () => documentSecurity(app, SwaggerModule.createDocument(app, config)),
    {
      jsonDocumentUrl: 'api/openapi.json',
      customSiteTitle: 'On NestJS',
      // Authorization kept across reloads: tokens and keys only, never a password; the CSRF
      // token sent back on unsafe requests, for cookie credentials.
      swaggerOptions: {
        persistAuthorization: true,
        plugins: [persistTokensOnly()],
        requestInterceptor: csrfRequestInterceptor(),
      },
    },
  );
  return app;
}

const port = Number(process.env.PORT ?? 8000);
if (process.argv[1] === import.meta.filename) await (await createApp()).listen(port); // run as a program
