import { Logger } from '@nestjs/common';
import type { AbstractHttpAdapter, ModulesContainer } from '@nestjs/core';
import type { AuthSpec } from '../core/auth-spec.js';
import { requirePrintable } from '../core/configuration-checks.js';
import { ConfigurationError } from '../core/errors.js';
import type { OperationAuth } from '../core/operation-auth.js';
import {
  createCsrfVerifier,
  type CsrfOptions,
  type CsrfProtection,
} from '../csrf/csrf-protection.js';
import { operationAuth } from '../internal/declaration.js';
import type { RouterLike } from '../internal/express-routing.js';
import type { ExceptionHandlerEntry } from './exception-filter.js';
import { expressRoute, fastifyRoute, recordRoutes, requestHook } from './request-hook.js';
import { expressRoutes, type RoutesByOperation } from './registered-routes.js';
import { RouteTable, type RouteEntry } from './route-table.js';

/** Options of `VouchModule.forRoot`, for the whole API. */
export interface VouchModuleOptions {
  /** API-wide `auth`; controllers and handlers may override it with `@Auth()`. Default: none. */
  readonly auth?: AuthSpec;
  /**
   * CSRF protection for cookie-based authentication (on by default). Give its secret and the
   * trusted origins, or `false` to turn it off (a warning is logged at start-up).
   */
  readonly csrf?: CsrfOptions | false;
  /** Realm named in `WWW-Authenticate` challenges (default `api`). */
  readonly realm?: string;
  /**
   * Handlers deciding the answer to errors of given classes, thrown by authenticate hooks or
   * handlers alike (the most specific class wins), as the seed's custom exception handlers.
   */
  readonly exceptionHandlers?: Iterable<ExceptionHandlerEntry>;
  /**
   * Whether vouch registers its global exception filter (default `true`). `false` leaves every
   * error to the application's filters and Nest's own: vouch's refusals and the errors of vouch's
   * that hooks throw reach them as Nest's `HttpException`s (the vouch error as `cause`, the
   * challenges and `Retry-After` set on the response); anything else a hook throws, and vouch's
   * errors a handler throws (a step-up's `InsufficientScopeError`), as thrown. Without the
   * filter, `exceptionHandlers` cannot be given.
   */
  readonly exceptionFilter?: boolean;
  /** Where server faults and store outages are logged (default Nest's `Logger`, as `vouch`). */
  readonly log?: (message: string, error: Error) => void;
}

const logger = new Logger('vouch');

/**
 * vouch in one Nest application, provided by `VouchModule`: the routes of its controllers and
 * what each requires, resolved when the application is created (configuration errors stop it
 * there), and the CSRF protection, to issue tokens at sign-in with the same secret.
 */
export class Vouch {
  /** The realm of the challenges. */
  readonly realm: string;
  /** The CSRF protection checking requests; `undefined` when `csrf` was not given or is off. */
  readonly csrfProtection: CsrfProtection | undefined;
  /** @internal Every route of the application's controllers, and what it requires. */
  readonly routes: RouteTable;
  /** @internal Where server faults and store outages are logged. */
  readonly log: (message: string, error: Error) => void;
  /** @internal Whether vouch's exception filter answers what hooks throw. */
  readonly filtered: boolean;
  #warned = false;
  /** The routes of controllers, by operation, once the platform registered them. */
  #operations: () => RoutesByOperation = () => new Map();

  constructor(options: VouchModuleOptions, modules: ModulesContainer) {
    const realm = options.realm ?? 'api';
    requirePrintable(realm, 'realm');
    this.realm = realm;
    this.filtered = options.exceptionFilter !== false;
    if (!this.filtered && options.exceptionHandlers !== undefined) {
      throw new ConfigurationError(
        "VouchModule.forRoot: exceptionHandlers are called by vouch's exception filter, which exceptionFilter: false leaves out",
      );
    }
    const { csrf } = options;
    if (csrf === false) logger.warn('CSRF protection is disabled (csrf: false)');
    this.csrfProtection =
      csrf === undefined || csrf === false ? undefined : createCsrfVerifier(csrf);
    this.log =
      options.log ??
      ((message, error) => {
        logger.error(message, error.stack);
      });
    this.routes = new RouteTable(
      {
        auth: { spec: options.auth ?? null, options: {} },
        realm,
        csrf: csrf === false ? false : this.csrfProtection,
      },
      modules,
    );
  }

  /** The authentication in force on every route of the application's controllers. */
  operations(): OperationAuth[] {
    return [...this.routes.entries()].map(({ declaration }) => operationAuth(declaration));
  }

  /**
   * @internal Puts vouch's request hook on the application's HTTP adapter, before Nest registers
   * its routes, which on Fastify are recorded as they are.
   */
  install(adapter: AbstractHttpAdapter): void {
    if (adapter.getType() === 'fastify') {
      const registered = new Map<string, RouteEntry>();
      adapter
        .getInstance<{ addHook(name: 'onRoute', hook: unknown): void }>()
        .addHook('onRoute', recordRoutes(this.routes, registered));
      adapter.setOnRequestHook(requestHook(fastifyRoute(this.routes), this, adapter));
      this.#operations = () => registered;
    } else if (adapter.getType() === 'express') {
      const { router } = adapter.getInstance<{ router: RouterLike }>();
      adapter.setOnRequestHook(requestHook(expressRoute(this.routes, router), this, adapter));
      this.#operations = () => expressRoutes(this.routes, router);
    }
    // On another platform, the guard authenticates every request, after its body was read.
  }

  /**
   * @internal The routes of the application's controllers by operation (see `operationKey`), as
   * the platform registered them: call it once the application is initialised.
   */
  routesByOperation(): RoutesByOperation {
    return this.#operations();
  }

  /** @internal Logs a credential store's outage. */
  logOutage(error: Error): void {
    this.log('vouch: credential store unavailable', error);
  }

  /** @internal Says once that a route was authenticated after its body was read. */
  warnLate(where: string): void {
    if (this.#warned) return;
    this.#warned = true;
    logger.warn(
      `${where} was authenticated by vouch's guard, after the request's body was read: the HTTP adapter's request hook did not run (did something replace it with setOnRequestHook()?) or could not tell the route (an @All() route with parameters on Nest 11's FastifyAdapter)`,
    );
  }
}
