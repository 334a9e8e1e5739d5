import type { FastifyRequest } from 'fastify';
import { checkLogin } from './check-login.js';
import type { DeviceCookies } from '../security/device-cookie.js';
import { type HashGate } from '../security/hash-gate.js';
import type { FailureLimiter } from '../security/rate-limit.js';
import type { RefusalDelay } from '../security/refusal-delay.js';
import type { Store, UserRecord } from '../store/store.js';
import { PasswordChecksBusyError, RetryLaterError, TooManyAttemptsError } from '../errors.js';

/** Where a sign-in comes from: the client address and the `Cookie` header it sent. */
export interface SignInSource {
  readonly address: string;
  readonly cookie: string | undefined;
}

/** Where a request signing in comes from. */
export function signInSource(request: FastifyRequest): SignInSource {
  return { address: request.ip, cookie: request.headers.cookie };
}

/** A successful sign-in: the user, and the device cookie to hand back (`Set-Cookie`). */
export interface SignedIn {
  readonly user: UserRecord;
  readonly deviceCookie: string;
}

/** Checks a username and password, counting failures as {@link FailureLimiter} does. */
export interface LoginGuard {
  /**
   * The user when the password is right; `undefined` when not (the same for an unknown user).
   * Throws {@link TooManyAttemptsError} while a limit holds the attempt back, and
   * {@link PasswordChecksBusyError} when too many checks are under way already, each once the
   * refusal delay has passed. A valid device cookie for the username moves the attempt from the
   * shared counters to its device's own.
   */
  check(source: SignInSource, username: string, password: string): Promise<SignedIn | undefined>;
  /**
   * Rejects with {@link PasswordChecksBusyError}, once the refusal delay has passed, when a check
   * would be refused now for want of capacity; resolves at once otherwise. To refuse before
   * reading a body.
   */
  refuseWhenBusy(): Promise<void>;
}

/** The guard shared by `/api/token`, `/api/auth/login` and HTTP Basic. */
export function createLoginGuard(
  store: Store,
  limiter: FailureLimiter,
  devices: DeviceCookies,
  gate: HashGate,
  delay: RefusalDelay,
): LoginGuard {
  const judge = async (source: SignInSource, username: string, password: string) => {
    // Refused before anything is counted or looked up: the cheapest answer to a flood.
    if (gate.busy()) throw new PasswordChecksBusyError();
    const attempt = {
      address: source.address,
      username,
      device: devices.trusted(source.cookie, username),
    };
    const verdict = await limiter.check(attempt);
    if (!verdict.allowed) throw new TooManyAttemptsError(verdict.retryAfterSeconds);
    let user;
    try {
      user = await gate.run(() => checkLogin(store, username, password));
    } catch (error) {
      // The store failed, or the checks were all busy: not the caller's failure.
      await limiter.release(attempt);
      throw error;
    }
    if (user === undefined) {
      await limiter.fail(attempt);
      return undefined;
    }
    await limiter.succeed(attempt);
    return { user, deviceCookie: devices.issue(user.username) };
  };
  return {
    async refuseWhenBusy() {
      if (!gate.busy()) return;
      await delay.until(performance.now());
      throw new PasswordChecksBusyError();
    },
    async check(source, username, password) {
      const arrived = performance.now();
      try {
        return await judge(source, username, password);
      } catch (error) {
        // A refusal (429, 503) waits its delay; a failing store is answered at once.
        if (error instanceof RetryLaterError) await delay.until(arrived);
        throw error;
      }
    },
  };
}
