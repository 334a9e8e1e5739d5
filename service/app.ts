import { AjvCompiler } from '@fastify/ajv-compiler';
import formbody from '@fastify/formbody';
import Fastify, {
  type FastifyError,
  type FastifySchemaCompiler,
  type FastifyInstance,
  type FastifyServerOptions,
} from 'fastify';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { VouchError } from 'vouch';
import { clientErrorHandler, createErrorHandler, exceptionHandler, vouch } from 'vouch/fastify';
import { vouchOpenapi } from 'vouch/fastify/openapi';
import { createAuthenticators } from './auth/authenticators.js';
import { adminRoutes } from './routes/admin.js';
import type { Config } from './config/config.js';
import { loggerOptions } from './logging/log.js';
import { createLoginGuard } from './auth/login-guard.js';
import { eventsRouter } from './routes/events.js';
import { exampleRoutes } from './routes/examples.js';
import { healthRoute, versionRoute } from './routes/health.js';
import { strictJsonBodies } from './routes/json-body.js';
import { TAGS } from './routes/schemas.js';
import { signInRoutes } from './routes/sign-in.js';
import { deviceCookies } from './security/device-cookie.js';
import { hashGate, type HashGate } from './security/hash-gate.js';
import { createFailureLimiter, type FailureLimiter } from './security/rate-limit.js';
import { refusalDelay, type RefusalDelay } from './security/refusal-delay.js';
import { purgeExpiredEvery, type PurgeSchedule } from './store/purge-expired.js';
import type { Store } from './store/store.js';
import { RetryLaterError } from './errors.js';

/** The version the service reports, from package.json. */
const SERVICE_VERSION = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

/** What the service is built from. */
export interface ServiceOptions {
  readonly config: Config;
  readonly store: Store;
  /** The server secret (from SECRET_KEY, or generated and kept in the store). */
  readonly secretKey: string;
  /** Counts failed sign-ins; a fresh in-memory one by default. */
  readonly limiter?: FailureLimiter;
  /** Bounds the password checks under way; one at a time, eight waiting, by default. */
  readonly hashGate?: HashGate;
  /** Holds refused sign-ins (429, 503); until a second after their request, by default. */
  readonly refusalDelay?: RefusalDelay;
  /** The clock, for tests. */
  readonly now?: () => number;
  /** Logger settings; pino with secrets redacted at the configured level by default. */
  readonly logger?: FastifyServerOptions['logger'];
  /** When expired tokens and dead sessions are deleted (hourly, a day after, by default). */
  readonly purge?: PurgeSchedule;
}

/**
 * Validators as Fastify builds them, except that bodies are taken as sent: Fastify's default
 * coerces a one-element array or a number into the string a schema asks for. Path and query
 * parameters are text, so coercing them stays.
 */
function validatorCompiler(): FastifySchemaCompiler<unknown> {
  const build = AjvCompiler();
  // The pool's compilers take the route's definition, as Fastify's own does (their declared
  // type says a bare schema).
  const compiler = (coerceTypes: false | 'array') =>
    build({}, { customOptions: { coerceTypes } }) as unknown as FastifySchemaCompiler<unknown>;
  const bodies = compiler(false);
  const others = compiler('array');
  return (route) => (route.httpPart === 'body' ? bodies : others)(route);
}

/** Derives a purpose-bound key from the server secret, so one leak does not open the others. */
function subkey(secret: string, purpose: string): string {
  return createHmac('sha256', secret).update(`vouch-service/${purpose}`).digest('base64url');
}

/**
 * The illustrated service (contract §7) as a ready Fastify instance; it never listens. Every
 * route is under `/api`; the API-wide authentication is Bearer over tokens from `/api/token`.
 */
export async function buildApp(options: ServiceOptions): Promise<FastifyInstance> {
  const { config, store } = options;
  const now = options.now ?? Date.now;
  const app = Fastify({
    logger: options.logger ?? loggerOptions(config.logLevel),
    // What the HTTP parser refuses is answered { detail } too.
    clientErrorHandler,
    trustProxy: config.trustProxy === false ? false : config.trustProxy.join(','),
  });
  const secure = config.publicOrigin.startsWith('https:');
  const login = createLoginGuard({
    store,
    limiter: options.limiter ?? createFailureLimiter(),
    devices: deviceCookies(subkey(options.secretKey, 'device'), { secure }),
    gate: options.hashGate ?? hashGate(),
    delay: options.refusalDelay ?? refusalDelay(),
    loginKey: subkey(options.secretKey, 'login'),
  });
  const auth = createAuthenticators({ config, store, login, now });
  const csrfOptions = {
    secret: subkey(options.secretKey, 'csrf'),
    trustedOrigins: [config.publicOrigin],
    cookie: { secure },
  };

  app.setValidatorCompiler(validatorCompiler());
  await app.register(formbody);
  strictJsonBodies(app);
  await app.register(vouch, {
    auth: [auth.bearer, auth.oauth2],
    csrf: csrfOptions,
    errorHandler: false,
  });
  const vouchErrors = createErrorHandler([
    exceptionHandler(RetryLaterError, (error, _request, reply) =>
      reply
        .code(error.statusCode)
        .header('retry-after', String(error.retryAfter))
        .send({ detail: error.message }),
    ),
  ]);
  // Every error body of the service is { detail }: Fastify's own client errors (validation,
  // unreadable bodies) and the service's (a JSON key given twice) included, so routes can
  // document one shape. Vouch's errors and the retry-later ones also carry headers.
  app.setErrorHandler(function serviceErrors(error: FastifyError, request, reply) {
    const status: unknown = error.statusCode;
    if (
      !(error instanceof VouchError || error instanceof RetryLaterError) &&
      typeof status === 'number' &&
      status >= 400 &&
      status < 500
    ) {
      return reply.code(status).send({ detail: error.message });
    }
    return vouchErrors.call(this, error, request, reply);
  });
  // Fastify's own 404 logs the raw request target, API-key parameters and all.
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ detail: 'Not Found' }));
  await app.register(vouchOpenapi, {
    openapi: {
      info: {
        title: 'vouch illustrated service',
        version: SERVICE_VERSION,
        license: { name: 'MIT', identifier: 'MIT' },
        description:
          'Every kind of authentication vouch offers, over real users, tokens, keys and sessions. ' +
          'Get a token from POST /api/token, then use Authorize.',
      },
      servers: [{ url: config.publicOrigin }],
      tags: [...TAGS],
    },
  });

  // From the moment the app is ready until it closes (the store is closed after it).
  let stopPurging: (() => Promise<void>) | undefined;
  app.addHook('onReady', () => {
    const timeouts = { idleMs: config.sessionIdleMs, absoluteMs: config.sessionAbsoluteMs };
    stopPurging = purgeExpiredEvery({ store, timeouts, now, log: app.log }, options.purge);
    return Promise.resolve();
  });
  app.addHook('onClose', () => stopPurging?.() ?? Promise.resolve());

  healthRoute(app, store);
  versionRoute(app, SERVICE_VERSION);
  // The plugin's own protection: the tokens sign-in issues are the ones the plugin checks.
  const csrf = app.vouch.csrfProtection;
  if (csrf === undefined) throw new Error('the vouch plugin was registered without CSRF');
  signInRoutes(app, { config, store, login, csrf, auth, now });
  exampleRoutes(app, auth);
  await app.register(eventsRouter(auth), { prefix: '/api/events' });
  adminRoutes(app, auth, store);
  return app;
}
