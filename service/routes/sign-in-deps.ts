import type { CsrfProtection } from 'vouch/csrf';
import type { Authenticators } from '../auth/authenticators.js';
import type { LoginGuard } from '../auth/login-guard.js';
import type { Config } from '../config/config.js';
import type { Store } from '../store/store.js';

/** What the sign-in routes need. */
export interface SignInDeps {
  readonly config: Config;
  readonly store: Store;
  readonly login: LoginGuard;
  readonly csrf: CsrfProtection;
  readonly auth: Authenticators;
  readonly now: () => number;
}
