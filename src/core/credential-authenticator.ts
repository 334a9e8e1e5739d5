import { Authenticator } from './authenticator.js';
import {
  judgeHook,
  type Awaitable,
  type Extraction,
  type Nothing,
  type Outcome,
} from './outcome.js';
import type { AuthRequest, RequestView } from './request.js';

/**
 * A base for your own kinds of credential: say where the credential lives (`extract`) and how
 * your hook is called with it (`invoke`); `verify` runs the two and judges the hook's result.
 * The built-in kinds implement `verify` themselves.
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

  override get readsCredential(): boolean {
    return true;
  }

  override verify(request: RequestView): Outcome<TAuth> | Promise<Outcome<TAuth>> {
    const found = this.extract(request);
    if (found.state !== 'present') return found;
    // The adapter passes its own request object, which is the registered AuthRequest type.
    const result = this.invoke(request as AuthRequest, found.credential);
    return judgeHook(result, this.csrfBinding(found.credential));
  }
}
