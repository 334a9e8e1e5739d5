import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
  onRequestHookHandler,
  preHandlerAsyncHookHandler,
  RouteOptions,
} from 'fastify';
import fp from 'fastify-plugin';
import { resolveAuth, type AuthSpec, type Requirement } from '../core/auth-spec.js';
import { evaluate, type AuthFailure, type AuthResult } from '../core/authenticate.js';
import { isPromiseLike } from '../core/outcome.js';
import { CsrfError, ConfigurationError, type VouchError } from '../core/errors.js';
import type { OperationAuth } from '../core/operation-auth.js';
import { SchemeRegistry } from '../core/scheme-registry.js';
import { requirePrintable } from '../core/configuration-checks.js';
import { declare, operationAuth, type Declaration } from '../internal/declaration.js';
import { answersPrivately, formCsrfPasses } from '../internal/settle.js';
import { withHeaders } from '../internal/with-headers.js';
import type { Won } from '../internal/won.js';
import {
  createCsrfVerifier,
  type CsrfOptions,
  type CsrfProtection,
} from '../csrf/csrf-protection.js';
import {
  createErrorHandler,
  kFailure,
  kWinner,
  type ExceptionHandlerEntry,
} from './exception-handlers.js';
import { setRouteAuth } from './route-auth.js';
import { sendVouchError } from './send-vouch-error.js';
import { inherited, kScope, openScope, settingOf, type Scope, type Setting } from './scope.js';
import './types.js';

/** Options of the vouch Fastify plugin, for the whole API. */
export interface VouchOptions {
  /** API-wide `auth`; routers and operations may override it. Default: none. */
  readonly auth?: AuthSpec;
  /**
   * CSRF protection for cookie-based authentication (on by default). Give its secret and the
   * trusted origins, or `false` to turn it off (a warning is logged at start-up).
   */
  readonly csrf?: CsrfOptions | false;
  /** Realm named in `WWW-Authenticate` challenges (default `api`). */
  readonly realm?: string;
  /** Handlers deciding the response for errors of given classes, from hooks and handlers alike. */
  readonly exceptionHandlers?: Iterable<ExceptionHandlerEntry>;
  /** Install vouch's error handler on the API (default `true`). */
  readonly errorHandler?: boolean;
}

const kCsrfDeferred = Symbol('vouch.csrfDeferred');

interface VouchRequest extends FastifyRequest {
  [kWinner]: Won | null;
  [kCsrfDeferred]: string | null;
  [kFailure]: AuthFailure | null;
}

// eslint-disable-next-line @typescript-eslint/require-await -- Fastify plugins are async functions
async function vouchPlugin(app: FastifyInstance, options: VouchOptions): Promise<void> {
  const realm = options.realm ?? 'api';
  requirePrintable(realm, 'realm');
  const csrfOff = options.csrf === false;
  const protection: CsrfProtection | undefined =
    options.csrf === undefined || options.csrf === false
      ? undefined
      : createCsrfVerifier(options.csrf);
  if (csrfOff) app.log.warn('vouch: CSRF protection is disabled (csrf: false)');

  const registry = new SchemeRegistry();
  const operations: OperationAuth[] = [];
  app.decorate('vouch', {
    securitySchemes: () => registry.toComponents(),
    realm,
    csrf: !csrfOff,
    csrfCookieName: protection?.cookieName ?? 'csrftoken',
    csrfHeaderName: protection?.headerName ?? 'X-CSRFToken',
    csrfProtection: protection,
    operations: () => operations,
  });
  app.decorateRequest('auth', undefined);
  app.decorateRequest(kWinner, null);
  app.decorateRequest(kCsrfDeferred, null);
  app.decorateRequest(kFailure, null);

  const root: Scope = {
    parent: undefined,
    mountAuth: { set: false },
    mountCsrf: { set: false },
    ownAuth: settingOf(options, 'auth'),
    ownCsrf: { set: true, value: !csrfOff },
  };
  (app as FastifyInstance & { [kScope]: Scope })[kScope] = root;
  const apiWide = resolveAuth(
    root.ownAuth.set ? root.ownAuth.value : null,
    'vouch plugin option auth',
  );
  // The API's own authentication is documented first, the others as routes first use them.
  if (apiWide !== null) registry.add(apiWide, 'vouch plugin option auth');

  app.addHook('onRegister', (instance, mountOptions) => {
    openScope(instance, mountOptions);
  });

  app.addHook('onRoute', function (this: FastifyInstance, route: RouteOptions) {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const where = `${methods.join(',')} ${route.url}`;
    const scope = (this as FastifyInstance & { [kScope]?: Scope })[kScope];

    const auth = settingOf<unknown>(route, 'auth');
    const spec = auth.set ? auth : inherited(scope, (s) => [s.mountAuth, s.ownAuth]);
    const routeCsrf = settingOf<unknown>(route, 'csrf');
    if (routeCsrf.set && typeof routeCsrf.value !== 'boolean') {
      throw new ConfigurationError(`${where}: csrf must be a boolean`);
    }
    const csrfSetting = routeCsrf.set
      ? (routeCsrf as Setting<boolean>)
      : inherited(scope, (s) => [s.mountCsrf, s.ownCsrf]);
    const csrfOn = !csrfOff && (!csrfSetting.set || csrfSetting.value);
    const scopes = settingOf<unknown>(route, 'scopes');
    const declaration = declare(
      spec.set ? spec.value : null,
      { realm, csrf: csrfOn ? protection : false, scopes: scopes.set ? scopes.value : undefined },
      { where, methods, csrfOption: 'the vouch plugin csrf: { secret, trustedOrigins }' },
    );
    const operation = operationAuth(declaration);
    setRouteAuth(route, operation);
    operations.push(operation);
    if (declaration.requirements === null) return;
    registry.add(declaration.requirements, where);
    route.onRequest = [authHook(declaration), ...toArray(route.onRequest)];
    if (declaration.protection !== undefined) {
      route.preHandler = [formCsrfHook(declaration), ...toArray(route.preHandler)];
    }
  });

  if (options.errorHandler !== false) {
    app.setErrorHandler(createErrorHandler(options.exceptionHandlers ?? []));
  }
}

function toArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

// Authentication runs in onRequest, before the body is read or validated: nothing
// unauthenticated costs a body parse, and a huge or malformed body still answers 401. A callback
// hook rather than an async one: when every verdict was synchronous the request goes on without
// a promise or a microtask turn.
function authHook(declaration: Declaration): onRequestHookHandler {
  const requirements = declaration.requirements as readonly Requirement[];
  return function vouchAuthenticate(request, reply, done): void {
    const result = evaluate(requirements, request, declaration.engine);
    if (!isPromiseLike(result)) {
      conclude(result, request, reply, done, declaration);
      return;
    }
    result.then((settled) => {
      conclude(settled, request, reply, done, declaration);
    }, done);
  };
}

/** Attaches the winner and goes on, hands a thrown error to the error handler, or answers. */
function conclude(
  result: AuthResult,
  request: FastifyRequest,
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
  declaration: Declaration,
): void {
  const vouchRequest = request as VouchRequest;
  if (result.ok) {
    request.auth = result.value;
    vouchRequest[kWinner] = { requirement: result.requirement, engine: declaration.engine };
    if (result.csrfDeferred !== undefined) vouchRequest[kCsrfDeferred] = result.csrfDeferred;
    // Before the handler, which may set its own.
    if (answersPrivately(declaration, result.requirement, reply, hasCacheControl)) {
      reply.header('cache-control', 'private');
    }
    done();
    return;
  }
  vouchRequest[kFailure] = result;
  if (result.thrown) {
    // With `errorHandler: false`, Fastify's own handler reads the challenges from `headers`.
    done(withHeaders(result.error, result.challenges, result.headers) as Error);
    return;
  }
  // Answering from a callback hook ends the chain; done() must not be called as well.
  sendVouchError(reply, result.error as VouchError, result.challenges, result.headers);
}

// A form post may carry its CSRF token in the body instead of the header; the body exists only
// after parsing, so that one check waits until here.
function formCsrfHook(declaration: Declaration): preHandlerAsyncHookHandler {
  return async function vouchFormCsrf(request: FastifyRequest, reply: FastifyReply) {
    const binding = (request as VouchRequest)[kCsrfDeferred];
    if (
      binding === null ||
      (await formCsrfPasses(declaration, binding, request, request, bodyOf))
    ) {
      return;
    }
    await sendVouchError(reply, new CsrfError(), []);
  };
}

const bodyOf = (request: FastifyRequest): unknown => request.body;
const hasCacheControl = (reply: FastifyReply): boolean => reply.hasHeader('cache-control');

/** The winning requirement of an authenticated request, or `null`. */
export function winnerOf(request: FastifyRequest): Requirement | null {
  return (request as VouchRequest)[kWinner]?.requirement ?? null;
}

/**
 * The vouch plugin: register it once, before your routes and routers.
 *
 * @example
 * await app.register(vouch, { auth: bearer, csrf: { secret, trustedOrigins: ['https://app.example'] } });
 */
export const vouch = fp(vouchPlugin, { name: 'vouch', fastify: '5.x' });
