import { createSecretKey } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Awaitable } from 'vouch';
import { checkLogin, type CheckedLogin } from './check-login.js';
import type { DeviceCookies } from '../security/device-cookie.js';
import { type HashGate } from '../security/hash-gate.js';
import type { Attempt, AttemptVerdict, FailureLimiter } from '../security/rate-limit.js';
import type { RefusalDelay } from '../security/refusal-delay.js';
import { loginDigest } from '../security/secrets.js';
import type { LiveLogin, Store } from '../store/store.js';
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

/**
 * A successful sign-in: the user, the hash its password matched (what a session is bound to),
 * and the device cookie to hand back (`Set-Cookie`).
 */
export interface SignedIn extends CheckedLogin {
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
   * As {@link check}, for a password sent with every request (HTTP Basic): the user with its
   * grants, and no device cookie. Once verified, the same username and password are recognised
   * from memory, without a password hash and at once when no limit needs reading (see
   * `FailureLimiter.recheck`), until anything about a user or its grants changes (see
   * `Store.recallLogin`); a limit holding the attempt back still refuses them. A login in use is
   * verified again in the background shortly before memory would forget it for its age, so that
   * a client sending it steadily never waits for a hash. A password not remembered (a wrong one
   * always) is checked in full, as {@link check} does, once any check of the same username and
   * password already under way has ended.
   */
  recognise(
    source: SignInSource,
    username: string,
    password: string,
  ): Awaitable<LiveLogin | undefined>;
  /**
   * Rejects with {@link PasswordChecksBusyError}, once the refusal delay has passed, when a check
   * would be refused now for want of capacity; resolves at once otherwise. To refuse before
   * reading a body.
   */
  refuseWhenBusy(): Promise<void>;
}

/** What {@link createLoginGuard} works with. */
export interface LoginGuardDeps {
  readonly store: Store;
  readonly limiter: FailureLimiter;
  readonly devices: DeviceCookies;
  readonly gate: HashGate;
  readonly delay: RefusalDelay;
  /** The secret that logins are remembered under a keyed hash with (see `loginDigest`). */
  readonly loginKey: string;
}

/** The guard shared by `/api/token`, `/api/auth/login` and HTTP Basic. */
export function createLoginGuard({
  store,
  limiter,
  devices,
  gate,
  delay,
  loginKey,
}: LoginGuardDeps): LoginGuard {
  // Prepared once: an HMAC under a string key prepares it again at every request.
  const loginSecret = createSecretKey(Buffer.from(loginKey));
  const attemptOf = (source: SignInSource, username: string): Attempt => ({
    address: source.address,
    username,
    device: devices.trusted(source.cookie, username),
  });

  /** Runs `verify` in its turn, counting the attempt toward the limits unless it succeeds. */
  const judge = async <T>(
    source: SignInSource,
    username: string,
    verify: () => Promise<T | undefined>,
  ): Promise<T | undefined> => {
    // Refused before anything is counted or looked up: the cheapest answer to a flood.
    if (gate.busy()) throw new PasswordChecksBusyError();
    const attempt = attemptOf(source, username);
    const verdict = await limiter.check(attempt);
    if (!verdict.allowed) throw new TooManyAttemptsError(verdict.retryAfterSeconds);
    let verified;
    try {
      verified = await gate.run(verify);
    } catch (error) {
      // The store failed, or the checks were all busy: not the caller's failure.
      await limiter.release(attempt);
      throw error;
    }
    if (verified === undefined) {
      await limiter.fail(attempt);
      return undefined;
    }
    await limiter.succeed(attempt);
    return verified;
  };

  // The checks under way for Basic, by login digest: a client's parallel requests, or all its
  // requests when its login has just been forgotten, wait for one check instead of each making
  // their own (which the hash gate would refuse beyond its queue).
  const checking = new Map<string, Promise<unknown>>();
  // Whether a remembered login is being verified again in the background: one at a time.
  let renewing = false;

  /** The user with its grants, when the password is right (a full password check). */
  const verifyLogin = (username: string, password: string) => async () => {
    const verified = await checkLogin(store, username, password);
    if (verified === undefined) return undefined;
    return { user: verified.user, scopes: await store.userScopes(verified.user.id) };
  };

  /**
   * Verifies a remembered login again, in the background, when memory is about to forget it. One
   * at a time, beside the hash gate rather than through it, so that no sign-in ever waits behind
   * a renewal or is refused for one; never while the gate is busy, nor while a check of the same
   * login is under way. Not renewed (another renewal under way, the store failing), a login is
   * forgotten on time and checked in full at its next request.
   */
  const renewIfDue = (key: string, username: string, password: string): void => {
    if (renewing || checking.has(key) || !store.loginNeedsRenewal(key) || gate.busy()) return;
    renewing = true;
    const renewed = () => {
      renewing = false;
    };
    store.rememberLogin(key, verifyLogin(username, password)).then(renewed, renewed);
  };

  /** A remembered login once `verdict` allows it; refused while a limit holds the attempt back. */
  const admit = async (
    verdict: Awaitable<AttemptVerdict>,
    key: string,
    username: string,
    password: string,
    login: LiveLogin,
  ): Promise<LiveLogin> => {
    const known = await verdict;
    if (!known.allowed) throw new TooManyAttemptsError(known.retryAfterSeconds);
    renewIfDue(key, username, password);
    return login;
  };

  /** Runs `answer`; a refusal (429, 503) waits its delay, a failing store is answered at once. */
  const delayingRefusals = async <T>(answer: () => Promise<T>): Promise<T> => {
    const arrived = performance.now();
    try {
      return await answer();
    } catch (error) {
      if (error instanceof RetryLaterError) await delay.until(arrived);
      throw error;
    }
  };

  return {
    async refuseWhenBusy() {
      if (!gate.busy()) return;
      await delay.until(performance.now());
      throw new PasswordChecksBusyError();
    },
    check(source, username, password) {
      return delayingRefusals(async () => {
        const checked = await judge(source, username, () => checkLogin(store, username, password));
        return checked && { ...checked, deviceCookie: devices.issue(checked.user.username) };
      });
    },
    recognise(source, username, password) {
      const key = loginDigest(loginSecret, username, password);
      const remembered = checking.has(key) ? undefined : store.recallLogin(key);
      if (remembered !== undefined) {
        // At once when the limiter answers at once, the usual case.
        const verdict = limiter.recheck(attemptOf(source, username));
        if (!(verdict instanceof Promise) && verdict.allowed) {
          renewIfDue(key, username, password);
          return remembered;
        }
        return delayingRefusals(() => admit(verdict, key, username, password, remembered));
      }
      return delayingRefusals(async () => {
        // Whatever it ended in, its answer is not this request's: only what it remembered is.
        const underWay = checking.get(key);
        if (underWay !== undefined) await underWay.catch(() => undefined);
        const known = store.recallLogin(key);
        if (known !== undefined) {
          const verdict = limiter.recheck(attemptOf(source, username));
          return admit(verdict, key, username, password, known);
        }
        const checked = judge(source, username, () =>
          store.rememberLogin(key, verifyLogin(username, password)),
        );
        checking.set(key, checked);
        const done = () => {
          if (checking.get(key) === checked) checking.delete(key);
        };
        checked.then(done, done);
        return checked;
      });
    },
  };
}
