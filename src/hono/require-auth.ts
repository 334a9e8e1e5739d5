import type { Context, MiddlewareHandler, Next } from 'hono';
import { matchedRoutes } from 'hono/route';
import { resolveAuth, type AuthOf, type AuthSpec, type Requirement } from '../core/auth-spec.js';
import { evaluate, type AuthenticateOptions } from '../core/authenticate.js';
import { ConfigurationError, CsrfError, type VouchError } from '../core/errors.js';
import {
  createCsrfVerifier,
  type CsrfOptions,
  type CsrfProtection,
} from '../csrf/csrf-protection.js';
import { requirePrintable } from '../internal/hook.js';
import { requestView, type HonoRequestView } from './request-view.js';
import { vouchResponse } from './vouch-response.js';

/** Options of {@link requireAuth}. */
export interface RequireAuthOptions {
  /** Realm named in `WWW-Authenticate` challenges (default `api`). */
  readonly realm?: string;
  /**
   * CSRF protection for cookie-based credentials on unsafe methods: its secret and trusted
   * origins, or `false` to turn it off. Required when `auth` names a cookie-based authenticator.
   */
  readonly csrf?: CsrfOptions | false;
}

/** The Hono environment a {@link requireAuth} middleware gives its handlers: `c.get('auth')`. */
export interface AuthEnv<TSpec> {
  Variables: { auth: AuthOf<TSpec> };
}

/** One `requireAuth(...)` as declared, resolved once. */
interface Declaration {
  readonly requirements: readonly Requirement[] | null;
  readonly engine: AuthenticateOptions;
  readonly protection: CsrfProtection | undefined;
  readonly privateRequirements: ReadonlySet<Requirement>;
}

const declarations = new WeakMap<object, Declaration>();
// Requests whose authentication is decided: the other requireAuth of the chain step aside.
const decided = new WeakSet<Context>();
const challenges = new WeakMap<Context, readonly string[]>();

/** Challenges of the authenticators tried on a request whose hook threw, for the error handler. */
export function challengesOf(c: Context): readonly string[] {
  return challenges.get(c) ?? [];
}

/**
 * Middleware requiring `auth` (an authenticator, a function, `allOf(...)`, a list tried in order,
 * or `null` to disable) on a route, a sub-app or the whole app. The most specific wins: of the
 * `requireAuth` middlewares Hono matched for a request, the last (the route's, then the sub-app's,
 * then the app's) decides, unless a handler registered for a method comes before it (that
 * handler may answer, so it keeps the earlier declaration: fail closed). Authentication runs
 * once, where the first of them stands. The
 * winner's value is `c.get('auth')`; refusals answer 401, 400, 403 or 503 here, and what a hook
 * throws goes to `app.onError` (see `vouchErrorHandler`).
 *
 * @example
 * app.get('/bearer', requireAuth(bearer), (c) => c.json({ token: c.get('auth') }));
 */
export function requireAuth<const TSpec extends AuthSpec>(
  auth: TSpec,
  options: RequireAuthOptions = {},
): MiddlewareHandler<AuthEnv<TSpec>> {
  const realm = options.realm ?? 'api';
  requirePrintable(realm, 'realm');
  const requirements = resolveAuth(auth, 'requireAuth()');
  const cookieBased = requirements?.some((r) => r.some((member) => member.cookieBased)) ?? false;
  if (cookieBased && options.csrf === undefined) {
    throw new ConfigurationError(
      'requireAuth(): cookie-based authentication needs CSRF protection; give csrf: { secret, trustedOrigins } (or csrf: false)',
    );
  }
  const protection =
    options.csrf === undefined || options.csrf === false
      ? undefined
      : createCsrfVerifier(options.csrf);
  const declaration: Declaration = {
    requirements,
    engine: { realm, csrf: protection?.verify },
    protection,
    privateRequirements: new Set(
      requirements?.filter((r) => r.some((member) => member.privateResponses)),
    ),
  };
  const middleware: MiddlewareHandler = async function vouchRequireAuth(c, next) {
    if (decided.has(c)) {
      await next();
      return;
    }
    decided.add(c);
    return run(mostSpecific(c) ?? declaration, c, next);
  };
  declarations.set(middleware, declaration);
  return middleware;
}

/**
 * The declaration that decides a request: of the requireAuth middlewares Hono matched after the
 * current one, the last before any handler registered for a method (`get`, `post`, …), which may
 * answer. The search ends there, so a later, weaker declaration never covers an earlier handler.
 */
function mostSpecific(c: Context): Declaration | undefined {
  const routes = matchedRoutes(c);
  let found: Declaration | undefined;
  for (let i = c.req.routeIndex + 1; i < routes.length; i++) {
    const route = routes[i] as (typeof routes)[number];
    const handler = route.handler as object & { __COMPOSED_HANDLER?: object };
    // A sub-app with its own onError has its handlers wrapped; Hono keeps the original here.
    const declaration =
      declarations.get(handler) ?? declarations.get(handler.__COMPOSED_HANDLER ?? handler);
    if (declaration !== undefined) found = declaration;
    // 'ALL': registered by use() (or all()); anything else is a route's own handler.
    else if (route.method !== 'ALL') break;
  }
  return found;
}

async function run(
  declaration: Declaration,
  c: Context,
  next: Next,
): Promise<Response | undefined> {
  const { requirements, protection } = declaration;
  if (requirements === null) {
    await next();
    return undefined;
  }
  const view = requestView(c);
  const result = await evaluate(requirements, view, declaration.engine);
  if (!result.ok) {
    if (!result.thrown) return vouchResponse(result.error as VouchError, result.challenges);
    challenges.set(c, result.challenges);
    // Hono hands only Errors to onError; anything else thrown is wrapped so it still gets there.
    throw result.error instanceof Error
      ? result.error
      : new Error('an authenticate hook threw a non-Error value', { cause: result.error });
  }
  if (
    result.csrfDeferred !== undefined &&
    !(await formTokenPasses(protection as CsrfProtection, c, view, result.csrfDeferred))
  ) {
    return vouchResponse(new CsrfError(), []);
  }
  c.set('auth', result.value);
  await next();
  // The body is the caller's own when an API key or a session authenticated the request.
  if (declaration.privateRequirements.has(result.requirement)) c.header('cache-control', 'private');
  return undefined;
}

// A form post may carry its CSRF token in the body; Hono keeps the parsed body for the handler.
async function formTokenPasses(
  protection: CsrfProtection,
  c: Context,
  view: HonoRequestView,
  binding: string,
): Promise<boolean> {
  const body = await c.req.parseBody().catch(() => undefined);
  return protection.verifyForm(view, body, binding);
}
