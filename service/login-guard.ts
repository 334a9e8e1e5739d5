import { checkLogin } from './security/passwords.js';
import type { FailureLimiter } from './security/rate-limit.js';
import type { Store, UserRecord } from './store/store.js';
import { TooManyAttemptsError } from './too-many-attempts.js';

/** Checks a username and password, counting failures per client address and per username. */
export interface LoginGuard {
  /**
   * The user when the password is right; `undefined` when not (the same for an unknown user).
   * Throws {@link TooManyAttemptsError} while the address or the username is locked out.
   */
  check(address: string, username: string, password: string): Promise<UserRecord | undefined>;
}

/** The guard shared by `/api/token`, `/api/auth/login` and HTTP Basic. */
export function createLoginGuard(store: Store, limiter: FailureLimiter): LoginGuard {
  return {
    async check(address, username, password) {
      const gate = await limiter.check(address, username);
      if (!gate.allowed) throw new TooManyAttemptsError(gate.retryAfterSeconds);
      let user;
      try {
        user = await checkLogin(store, username, password);
      } catch (error) {
        // The store failed, not the caller: the attempt must not count against them.
        await limiter.release(address, username);
        throw error;
      }
      if (user === undefined) await limiter.fail(address, username);
      else await limiter.succeed(address, username);
      return user;
    },
  };
}
