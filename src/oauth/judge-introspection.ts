import type { IntrospectionResponse } from './introspect-token.js';

/**
 * An active token's introspection answer (RFC 7662 §2.2) as a protected resource accepts it:
 * `request.auth` of an `IntrospectionBearer` without `map`. Routes' `scopes` read `scope`.
 */
export interface IntrospectionAnswer {
  readonly active: true;
  /** The scopes granted, space-separated. */
  readonly scope?: string;
  readonly client_id?: string;
  readonly username?: string;
  /** `Bearer`, or `DPoP` for a DPoP-bound token, when present (compared case-insensitively). */
  readonly token_type?: string;
  readonly exp?: number;
  readonly iat?: number;
  readonly nbf?: number;
  readonly sub?: string;
  readonly aud?: string | readonly string[];
  readonly iss?: string;
  readonly jti?: string;
  /** The key or certificate the token is bound to (RFC 7800), proved by each request. */
  readonly cnf?: unknown;
  /** Anything else the authorization server adds. */
  readonly [claim: string]: unknown;
}

/** What an answer must say for its token to be accepted. */
export interface IntrospectionExpectations {
  /**
   * `exactly`: the one audience of a protected resource's tokens, alone; `anyOf`: the token's
   * audiences must include one of these; `undefined`: any audience, deliberately.
   */
  readonly audience:
    { readonly exactly: string } | { readonly anyOf: readonly string[] } | undefined;
  /** The issuers trusted when the answer names one; `undefined` trusts any, deliberately. */
  readonly issuers: readonly string[] | undefined;
  /** Seconds of clock skew allowed when checking `exp` and `nbf`. */
  readonly clockTolerance: number;
}

/**
 * Whether an introspection answer accepts its token at `now` (milliseconds since the epoch), as
 * the JWT path checks a payload: `active` exactly `true`; `token_type`, when given, `Bearer` or
 * `DPoP` (RFC 9449 §6.2), a DPoP token naming its key in `cnf.jkt`; `exp` not past and `nbf` not
 * ahead, give or take the tolerance; `iss`, when given, trusted; `aud` as `expected` says;
 * `scope`, when given, a string. A claim of the wrong type refuses. A binding (`cnf`) is checked
 * apart, against what each request proves (see `confirms`).
 */
export function judgeIntrospection(
  answer: IntrospectionResponse,
  expected: IntrospectionExpectations,
  now: number,
): answer is IntrospectionResponse & IntrospectionAnswer {
  // `active` is a boolean by the time it gets here; `true` exactly, whatever reaches it.
  if ((answer.active as unknown) !== true) return false;
  const { token_type: type, exp, nbf, iss, aud, scope } = answer;
  if (type !== undefined && !fitsTokenType(type, answer['cnf'])) return false;
  const seconds = Math.floor(now / 1000);
  const tolerance = expected.clockTolerance;
  if (exp !== undefined && !(typeof exp === 'number' && exp > seconds - tolerance)) return false;
  if (nbf !== undefined && !(typeof nbf === 'number' && nbf <= seconds + tolerance)) return false;
  if (scope !== undefined && typeof scope !== 'string') return false;
  if (
    iss !== undefined &&
    !(typeof iss === 'string' && (expected.issuers?.includes(iss) ?? true))
  ) {
    return false;
  }
  return audienceFits(aud, expected.audience);
}

/** `Bearer`, or `DPoP` for a token bound to a key: never a DPoP token taken for a Bearer one. */
function fitsTokenType(type: unknown, cnf: unknown): boolean {
  if (typeof type !== 'string') return false;
  const lower = type.toLowerCase();
  if (lower === 'bearer') return true;
  return lower === 'dpop' && typeof cnf === 'object' && cnf !== null && Object.hasOwn(cnf, 'jkt');
}

function audienceFits(aud: unknown, expected: IntrospectionExpectations['audience']): boolean {
  if (expected === undefined) return true;
  const audiences = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud : [];
  // RFC 8707: a protected resource's token names it alone, so it cannot be replayed elsewhere.
  if ('exactly' in expected) return audiences.length === 1 && audiences[0] === expected.exactly;
  return audiences.some((one) => typeof one === 'string' && expected.anyOf.includes(one));
}
