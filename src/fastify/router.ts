import type { FastifyInstance, FastifyPluginAsync, FastifyPluginOptions } from 'fastify';
import { resolveAuth, type AuthSpec } from '../core/auth-spec.js';
import { ConfigurationError } from '../core/errors.js';
import { ownScope, settingOf } from './scope.js';

/** What a router says about its routes when it is created. */
export interface RouterOptions {
  /** `auth` for every route declared in the router; `null` disables it. */
  readonly auth?: AuthSpec;
  /** `false` exempts the router's routes from CSRF protection. */
  readonly csrf?: boolean;
}

/**
 * A route group with its own `auth`, mounted with `app.register(router, { prefix })`. The value
 * given when mounting (`register(router, { prefix, auth })`) overrides the one given here;
 * operations override both; nested routers inherit.
 *
 * @example
 * const events = router({ auth: headerKey }, async (r) => {
 *   r.get('/', async (request) => listEvents(request.auth));
 * });
 * await app.register(events, { prefix: '/api/events' });
 */
export function router<TOptions extends FastifyPluginOptions = FastifyPluginOptions>(
  options: RouterOptions,
  plugin: FastifyPluginAsync<TOptions>,
): FastifyPluginAsync<TOptions> {
  const auth = settingOf<unknown>(options, 'auth');
  const csrf = settingOf<unknown>(options, 'csrf');
  if (auth.set) resolveAuth(auth.value, `router ${plugin.name || '(anonymous)'}`);
  if (csrf.set && typeof csrf.value !== 'boolean') {
    throw new ConfigurationError(`router ${plugin.name || '(anonymous)'}: csrf must be a boolean`);
  }
  const mounted = async function (instance: FastifyInstance, pluginOptions: TOptions) {
    const scope = ownScope(instance, `router ${plugin.name || '(anonymous)'}`);
    scope.ownAuth = auth;
    scope.ownCsrf = csrf as typeof scope.ownCsrf;
    await plugin(instance, pluginOptions);
  };
  Object.defineProperty(mounted, 'name', { value: plugin.name || 'vouchRouter' });
  return mounted;
}
