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
 * The path every credential takes, in the built-in kinds and in your own: `extract` finds the
 * credential where it lives and checks its form, `invoke` calls the hook with it, and `verify`
 * judges the hook's result, bound for a cookie kind to what `csrfBinding` names. A credential that
 * is absent, sent twice, too long or malformed never reaches the hook.
 *
 * @example
 * class ClientIdAuth extends CredentialAuthenticator<string, Client> {
 *   protected override extract(request: RequestView): Extraction<string> {
 *     const id = request.headers['x-client-id'];
 *     return typeof id === 'string' && id !== '' ? { state: 'present', credential: id } : ABSENT;
 *   }
 *   protected override invoke(_request: AuthRequest, id: string) {
 *     return clients.get(id);
 *   }
 * }
 */
export abstract class CredentialAuthenticator<TCredential, TAuth> extends Authenticator<TAuth> {
  /** Finds the credential and checks its form; never throws. */
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
