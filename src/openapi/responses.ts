import type { Requirement } from '../core/auth-spec.js';
import type { Authenticator } from '../core/authenticator.js';
import type { OperationAuth } from '../core/operation-auth.js';
import { csrfAppliesToSome } from '../core/csrf-applies.js';
import { distinctLines } from '../core/authenticate.js';

/** A JSON Schema, as OpenAPI 3.1 embeds it. */
export type JsonSchema = Record<string, unknown>;

/** An OpenAPI Header Object. */
export interface HeaderObject {
  description: string;
  schema: JsonSchema;
}

/** An OpenAPI Response Object describing one of vouch's JSON error replies. */
export interface ErrorResponseObject {
  description: string;
  headers?: Record<string, HeaderObject>;
  content: { 'application/json': { schema: JsonSchema } };
}

/** Options of {@link errorResponses}. */
export interface ErrorResponsesOptions {
  /** The API-wide realm shown in example challenges (default: the operation's, else `api`). */
  readonly realm?: string;
}

/** The body of every vouch error reply: `{ "detail": "…" }`. */
export const errorBodySchema: JsonSchema = Object.freeze({
  type: 'object',
  properties: { detail: { type: 'string' } },
  required: ['detail'],
});

/**
 * Whether the CSRF check can refuse a request to this route (contract §4): CSRF is on for it,
 * one of its authenticators reads a cookie, and one of its methods is unsafe.
 *
 * @example csrfCanApply({ requirements: [[session]], csrf: true }, 'POST') // true
 */
export function csrfCanApply(route: OperationAuth, method: string | readonly string[]): boolean {
  if (!route.csrf || route.requirements === null) return false;
  return csrfAppliesToSome(route.requirements, typeof method === 'string' ? [method] : method);
}

/**
 * The error replies vouch can send for a route (contract §5), by status, as OpenAPI Response
 * Objects; none for a route without authentication.
 *
 * - 401 on every protected route, with `WWW-Authenticate` when an authenticator challenges;
 * - 403 where the CSRF check can apply ({@link csrfCanApply}) or the route requires scopes;
 * - 400 where a credential read from a header, query or cookie can be sent twice, or a token by
 *   two methods (ambiguous), with the `invalid_request` challenges of those that send one
 *   (Bearer's, DPoP's);
 * - 503 with `Retry-After` where an authenticator consults a store that may not answer
 *   (`consultsStore`: `SessionAuth`, a `JwtBearer` over a JWKS URL, a hook that says it reads one).
 *
 * A hook's own `AuthorizationError` (403) is the application's to document: vouch cannot know
 * which hooks throw it.
 *
 * @example errorResponses({ requirements: [[bearer]], csrf: true }, 'GET') // { 400: …, 401: … }
 */
export function errorResponses(
  route: OperationAuth,
  method: string | readonly string[],
  options: ErrorResponsesOptions = {},
): Record<string, ErrorResponseObject> {
  if (route.requirements === null) return {};
  const all = members(route.requirements);
  const realm = options.realm ?? route.realm ?? 'api';
  const responses: Record<string, ErrorResponseObject> = {};
  if (all.some((member) => member.readsCredential)) {
    const badRequestChallenges = distinctLines(all, (member) =>
      member.badRequestChallenge(member.realm ?? realm),
    );
    responses['400'] = errorResponse(
      'Bad Request: a credential was sent more than once, or by two methods (ambiguous credentials)',
      badRequestChallenges.length === 0
        ? undefined
        : {
            'WWW-Authenticate': {
              description: `On an ambiguous credential: ${badRequestChallenges.map((c) => `\`${c}\``).join(', ')}`,
              schema: { type: 'string' },
            },
          },
    );
  }
  const challenges = challengesOf(all, realm, route.scopes ?? []);
  responses['401'] = errorResponse(
    'Unauthorized: no authenticator accepted the request',
    challenges.length === 0
      ? undefined
      : {
          'WWW-Authenticate': {
            description: `One line per authenticator tried, among: ${challenges.map((c) => `\`${c}\``).join(', ')}`,
            schema: { type: 'string' },
          },
        },
  );
  const forbidden: string[] = [];
  if (csrfCanApply(route, method)) {
    forbidden.push(
      'CSRF check Failed: a cookie credential came without a valid X-CSRFToken or from an untrusted origin',
    );
  }
  const scopes = route.scopes ?? [];
  if (scopes.length > 0) {
    forbidden.push(`Forbidden: the credential does not grant ${scopes.join(', ')}`);
  }
  if (forbidden.length > 0) {
    const scopeChallenges = distinctLines(all, (member) =>
      member.scopeChallenge(member.realm ?? realm, scopes),
    );
    responses['403'] = errorResponse(
      forbidden.join('; or '),
      scopes.length === 0 || scopeChallenges.length === 0
        ? undefined
        : {
            'WWW-Authenticate': {
              description: `On a lack of scope: ${scopeChallenges.map((c) => `\`${c}\``).join(', ')}`,
              schema: { type: 'string' },
            },
          },
    );
  }
  if (all.some((member) => member.consultsStore)) {
    responses['503'] = errorResponse(
      'Service Unavailable: a store the credential is checked against did not answer',
      {
        'Retry-After': {
          description: 'Seconds to wait before retrying',
          schema: { type: 'integer', minimum: 0 },
        },
      },
    );
  }
  return responses;
}

function members(requirements: readonly Requirement[]): Authenticator[] {
  return requirements.flat();
}

function challengesOf(
  all: readonly Authenticator[],
  realm: string,
  scopes: readonly string[],
): string[] {
  return distinctLines(all, (member) => member.challenge(member.realm ?? realm, false, scopes));
}

function errorResponse(
  description: string,
  headers?: Record<string, HeaderObject>,
): ErrorResponseObject {
  return {
    description,
    ...(headers === undefined ? {} : { headers }),
    content: { 'application/json': { schema: structuredClone(errorBodySchema) } },
  };
}
