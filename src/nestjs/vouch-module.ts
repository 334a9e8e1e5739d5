import { Inject, Module, type DynamicModule, type NestModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, HttpAdapterHost, ModulesContainer } from '@nestjs/core';
import { vouchExceptionFilter } from './exception-filter.js';
import { Vouch, type VouchModuleOptions } from './vouch.js';
import { VouchGuard } from './vouch-guard.js';

/**
 * vouch for a Nest application, on Express or Fastify: import `VouchModule.forRoot(...)` once,
 * in the root module. Every route of the application's controllers then requires the `auth` of
 * its handler's `@Auth()`, else its controller's, else the module's; vouch authenticates each
 * request before anything reads its body, refuses through Nest's exception layer, and hands the
 * handler the winner's value (`@Principal()`).
 *
 * @example
 * @Module({
 *   imports: [VouchModule.forRoot({ auth: bearer, csrf: { secret, trustedOrigins } })],
 *   controllers: [PetsController],
 * })
 * export class AppModule {}
 */
@Module({})
export class VouchModule implements NestModule {
  readonly #vouch: Vouch;
  readonly #host: HttpAdapterHost;

  constructor(@Inject(Vouch) vouch: Vouch, @Inject(HttpAdapterHost) host: HttpAdapterHost) {
    this.#vouch = vouch;
    this.#host = host;
  }

  /** The module, with the API-wide `auth` and the settings of every route. */
  static forRoot(options: VouchModuleOptions = {}): DynamicModule {
    return {
      module: VouchModule,
      global: true,
      providers: [
        {
          provide: Vouch,
          useFactory: (modules: ModulesContainer) => new Vouch(options, modules),
          inject: [ModulesContainer],
        },
        {
          provide: APP_GUARD,
          useFactory: (vouch: Vouch, host: HttpAdapterHost) => new VouchGuard(vouch, host),
          inject: [Vouch, HttpAdapterHost],
        },
        ...(options.exceptionFilter === false
          ? []
          : [
              {
                provide: APP_FILTER,
                useFactory: (vouch: Vouch, host: HttpAdapterHost) =>
                  vouchExceptionFilter(vouch, host, options.exceptionHandlers ?? []),
                inject: [Vouch, HttpAdapterHost],
              },
            ]),
      ],
      exports: [Vouch],
    };
  }

  /**
   * Called by Nest when an HTTP application initialises, before it registers its routes: vouch's
   * request hook goes on the HTTP adapter, which exists by then whichever way the application
   * was made (`NestFactory.create`, a testing module).
   */
  configure(): void {
    this.#vouch.install(this.#host.httpAdapter);
  }
}
