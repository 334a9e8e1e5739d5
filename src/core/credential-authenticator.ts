import { Authenticator } from './authenticator.js';
import {
  isAccepted,
  REJECTED,
  isPromiseLike,
  type Awaitable,
  type Extraction,
  type Nothing,
  type Outcome,
} from './outcome.js';
import type { AuthRequest, RequestView } from './request.js';

/** Credentials longer than this many characters are refused without calling the hook. */
export const DEFAULT_MAX_CREDENTIAL_LENGTH = 4096;

/**
 * An authenticator that reads one credential from the request and hands it to a hook. Subclasses
 * say where the credential lives (`extract`) and how the hook is called (`invoke`).
 */
export abstract class CredentialAuthenticator<TCredential, TAuth> extends Authenticator<TAuth> {
  /** Finds the credential; never throws. */
  protected abstract extract(request: RequestView): Extraction<TCredential>;

  /** Calls the `authenticate` hook with the credential. */
  protected abstract invoke(
    request: AuthRequest,
    credential: TCredential,
  ): Awaitable<TAuth | Nothing>;

  /** For cookie-based kinds: the value a CSRF token must be bound to. */
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the base binds nothing
  protected csrfBinding(credential: TCredential): string | undefined {
    return undefined;
  }

  override verify(request: RequestView): Outcome<TAuth> | Promise<Outcome<TAuth>> {
    const found = this.extract(request);
    if (found.state !== 'present') return found;
    const credential = found.credential;
    // The adapter passes its own request object, which is the registered AuthRequest type.
    const value = this.invoke(request as AuthRequest, credential);
    // A synchronous hook is judged at once: no promise, no closure.
    if (!isPromiseLike(value)) return this.#judge(value, credential);
    return Promise.resolve(value).then((settled) => this.#judge(settled, credential));
  }

  #judge(value: TAuth | Nothing, credential: TCredential): Outcome<TAuth> {
    if (!isAccepted(value)) return REJECTED;
    const csrfBinding = this.csrfBinding(credential);
    return csrfBinding === undefined
      ? { state: 'accepted', value }
      : { state: 'accepted', value, csrfBinding };
  }
}
