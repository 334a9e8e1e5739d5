import { SetMetadata } from '@nestjs/common';
import type { AuthSpec } from '../core/auth-spec.js';

/** Options of {@link Auth}: what the route requires beyond who the caller is. */
export interface AuthOptions {
  /**
   * Scopes the credential must grant (see `Authenticator#scopesOf`); one that is accepted
   * without them answers 403 `insufficient_scope`.
   */
  readonly scopes?: readonly string[];
  /** `false` exempts the routes from CSRF protection (contract §4); it is on by default. */
  readonly csrf?: boolean;
}

/** What one `@Auth()` declares, as kept in the metadata of a controller or a handler. */
export interface AuthSetting {
  readonly spec: AuthSpec;
  readonly options: AuthOptions;
}

/** The metadata key `@Auth()` writes. */
export const AUTH_METADATA = 'vouch:auth';

/**
 * The authentication a controller's routes (on the class) or one route (on its handler) require:
 * an authenticator, a function, `allOf(...)`, a list tried in order, or `null` to switch it off.
 * The most specific wins: the handler's, then the controller's, then `VouchModule.forRoot`'s.
 *
 * @example
 * @Controller('events')
 * @Auth(apiKey)
 * export class EventsController {
 *   @Get('open') @Auth(null) open() {}
 *   @Get('mine') @Auth(bearer, { scopes: ['events:read'] }) mine(@Principal(bearer) user: Principal<typeof bearer>) {}
 * }
 */
export function Auth(spec: AuthSpec, options: AuthOptions = {}): ClassDecorator & MethodDecorator {
  const setting: AuthSetting = { spec, options };
  return SetMetadata(AUTH_METADATA, setting);
}
