import {
  Authenticator,
  DEFAULT_MAX_CREDENTIAL_LENGTH,
  quote,
  type AuthenticatorOptions,
} from '../core/authenticator.js';
import { wholeNumber } from '../core/configuration-checks.js';
import { isAccepted, REJECTED, refusal, type Outcome, type Rejected } from '../core/outcome.js';
import type { AuthRequest, RequestView } from '../core/request.js';
import type { SecurityScheme } from '../core/security-scheme.js';
import { authorizationCredentials, isB64token } from '../http/authorization.js';
import { metadataParam, scopeParam } from '../http/bearer-params.js';
import { singleHeaderValue } from '../internal/read-once.js';
import type { ProtectedResource } from '../oauth/protected-resource.js';
import { dpopAlgorithms } from './dpop-algorithms.js';
import { dpopNonces, type DPoPNonceOptions } from './dpop-nonces.js';
import { memoryReplayStore } from './memory-replay-store.js';
import { publicUrlSource, type PublicUrlSource } from './public-url-source.js';
import type { ReplayStore } from './replay-store.js';
import type { DPoPTokenVerifier } from './dpop-token-verifier.js';
import { verifyDPoPProof, type DPoPProofExpectations } from './verify-dpop-proof.js';

/** Options of {@link DPoPBearer}. */
export interface DPoPBearerOptions<TAuth> extends Omit<AuthenticatorOptions, 'consultsStore'> {
  /** What checks the token once the proof passed: a `JwtBearer` or an `IntrospectionBearer`. */
  readonly tokens: DPoPTokenVerifier<TAuth>;
  /** The JWS algorithms a proof may be signed with (default: every asymmetric one). */
  readonly algorithms?: readonly string[];
  /** Where proofs already seen are kept (default: this process's memory); share one across instances. */
  readonly replay?: ReplayStore;
  /**
   * What tells the request's public URL, for `htu` (e.g. `edge({ publicOrigin })`). Default: the
   * origin of `tokens.resource` and the request's path.
   */
  readonly edge?: PublicUrlSource;
  /** Seconds a proof is accepted after its `iat` (default 60). */
  readonly maxAge?: number;
  /** Seconds of clock skew allowed on `iat`, either way (default 5). */
  readonly clockTolerance?: number;
  /** Require server nonces in proofs (RFC 9449 §9), derived from a secret every instance shares. */
  readonly nonces?: DPoPNonceOptions;
  /** Longest access token accepted, in characters (default 4096). */
  readonly maxLength?: number;
  /** Documented description of the scheme. */
  readonly description?: string;
}

const INVALID_PROOF = refusal('invalid_dpop_proof');

/**
 * DPoP-bound access tokens (RFC 9449): reads `Authorization: DPoP <token>` and its one `DPoP`
 * proof, checks the proof against this request (see {@link verifyDPoPProof}), has `tokens` check
 * the token with the proof's key as what the request proved (its `cnf.jkt` must be that key's
 * thumbprint; a token bound to nothing is refused), then records the proof's `jti` in the replay
 * store, once per request however often the request is checked. `request.auth` is what `tokens` makes of the token. Refusals answer 401 with
 * `error="invalid_dpop_proof"`, `error="invalid_token"`, or `error="use_dpop_nonce"` and a fresh
 * `DPoP-Nonce`; every challenge names the algorithms allowed (`algs`). A replay store or a
 * verifier that cannot answer is a 503. Documented as `{ type: 'http', scheme: 'DPoP' }`.
 *
 * @example
 * const jwt = new JwtBearer({ resource: api, algorithms: ['RS256'] });
 * const dpop = new DPoPBearer({ tokens: jwt, replay: redisReplayStore(redis) });
 * app.get('/mcp', { auth: [dpop, jwt] }, handler); // DPoP, or Bearer for unbound tokens
 * app.get('/admin', { auth: dpop }, handler); // DPoP only
 */
export class DPoPBearer<TAuth = unknown> extends Authenticator<TAuth> {
  /** The protected resource whose tokens it accepts, if its verifier names one. */
  readonly resource: ProtectedResource | undefined;
  /** The JWS algorithms a proof may be signed with. */
  readonly algorithms: readonly string[];
  readonly #tokens: DPoPTokenVerifier<TAuth>;
  readonly #replay: ReplayStore;
  readonly #edge: PublicUrlSource;
  /** What every proof is checked against, beside its request. */
  readonly #rules: Pick<
    DPoPProofExpectations,
    'algorithms' | 'maxAge' | 'clockTolerance' | 'nonces'
  >;
  readonly #maxLength: number;
  readonly #scheme: SecurityScheme;
  /**
   * The proof each request claimed, by the request's headers object, which its engine keeps for
   * the request's life: a request checked again (a step-up's second `requireAuth`) is no replay.
   */
  readonly #claimed = new WeakMap<object, string>();

  constructor(options: DPoPBearerOptions<TAuth>) {
    super('dpopAuth', { ...options, consultsStore: true });
    const { tokens } = options;
    this.#tokens = tokens;
    this.resource = tokens.resource;
    this.algorithms = dpopAlgorithms(options.algorithms);
    this.#replay = options.replay ?? memoryReplayStore();
    this.#edge = options.edge ?? publicUrlSource(tokens.resource);
    const seconds = { unit: 'seconds' };
    this.#rules = {
      algorithms: this.algorithms,
      maxAge: wholeNumber(options.maxAge, 60, 'DPoPBearer maxAge', seconds),
      clockTolerance: wholeNumber(options.clockTolerance, 5, 'DPoPBearer clockTolerance', seconds),
      nonces: options.nonces === undefined ? undefined : dpopNonces(options.nonces),
    };
    this.#maxLength = options.maxLength ?? DEFAULT_MAX_CREDENTIAL_LENGTH;
    this.#scheme = {
      type: 'http',
      scheme: 'DPoP',
      ...(options.description === undefined ? {} : { description: options.description }),
    };
  }

  override get securityScheme(): SecurityScheme {
    return this.#scheme;
  }

  override get readsCredential(): boolean {
    return true;
  }

  override scopesOf(value: TAuth): readonly string[] {
    return this.#tokens.scopesOf(value);
  }

  /**
   * What its `tokens` distrust (given `clientCertificates`, a request whose client certificate
   * cannot be used) refuses the request wherever this stands in its `auth`; a DPoP token it
   * presents is refused with it (`error="invalid_token"`), whatever they said of theirs.
   */
  override distrusts(request: RequestView): boolean | Rejected {
    const theirs = this.#tokens.distrusts?.(request);
    if (theirs === undefined || theirs === false) return false;
    const found = authorizationCredentials(request, 'dpop', this.#maxLength);
    return found.state === 'absent' ? true : REJECTED;
  }

  override verify(request: RequestView): Outcome<TAuth> | Promise<Outcome<TAuth>> {
    const found = authorizationCredentials(request, 'dpop', this.#maxLength);
    if (found.state !== 'present') return found;
    if (!isB64token(found.credential)) return REJECTED;
    // RFC 9449 §4.3 (1): one proof. Two DPoP lines, or none, prove nothing.
    const proof = singleHeaderValue(request, 'dpop', 'DPoP');
    if (typeof proof !== 'string') return INVALID_PROOF;
    return this.#check(request, found.credential, proof);
  }

  async #check(request: RequestView, token: string, proof: string): Promise<Outcome<TAuth>> {
    const url = this.#edge.publicUrl(request);
    if (url === undefined) return INVALID_PROOF;
    const { method } = request;
    const expected = { ...this.#rules, method, url, accessToken: token, now: Date.now() };
    const proved = await verifyDPoPProof(proof, expected);
    if (!proved.valid) {
      if (proved.error === 'invalid_dpop_proof') return INVALID_PROOF;
      return refusal(proved.error, { 'dpop-nonce': proved.nonce });
    }
    // The adapter passes its own request object, which is the registered AuthRequest type.
    const value = await this.#tokens.verifyToken(request as AuthRequest, token, {
      jkt: proved.jkt,
    });
    if (!isAccepted(value)) return REJECTED;
    // Last, so that only a request accepted but for it takes room in the store.
    if (this.#claimed.get(request.headers) !== proved.replayKey) {
      if (!(await this.#replay.claim(proved.replayKey, proved.expiresAt))) return INVALID_PROOF;
      this.#claimed.set(request.headers, proved.replayKey);
    }
    return { state: 'accepted', value };
  }

  /**
   * `DPoP realm="…", algs="…"` (RFC 9449 §7.1), with the refusal's error (`invalid_token` when
   * it names none); under a protected resource, the scopes required and its metadata, as Bearer's.
   */
  override challenge(
    realm: string,
    rejected: boolean,
    scopes: readonly string[] = [],
    error?: string,
  ): string {
    const reason = error ?? (rejected ? 'invalid_token' : undefined);
    const scope = this.resource === undefined ? '' : scopeParam(scopes);
    return this.#line(realm, reason, scope);
  }

  override badRequestChallenge(realm: string): string {
    return this.#line(realm, 'invalid_request', '');
  }

  override scopeChallenge(realm: string, scopes: readonly string[]): string {
    return this.#line(realm, 'insufficient_scope', scopeParam(scopes));
  }

  #line(realm: string, error: string | undefined, scope: string): string {
    const reason = error === undefined ? '' : `, error=${quote(error)}`;
    const algs = `, algs=${quote(this.algorithms.join(' '))}`;
    return `DPoP realm=${quote(realm)}${reason}${algs}${scope}${metadataParam(this.resource)}`;
  }
}
