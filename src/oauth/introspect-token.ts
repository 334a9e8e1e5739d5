import { StoreUnavailableError } from '../core/errors.js';
import { utf8 } from '../core/utf8.js';
import { toBase64 } from '../internal/base64.js';

/** How a protected resource authenticates to the introspection endpoint (RFC 6749 §2.3.1). */
export type IntrospectionClientAuthentication = 'client_secret_basic' | 'client_secret_post';

/** The confidential client a protected resource introspects as. */
export interface IntrospectionClient {
  readonly id: string;
  readonly secret: string;
  readonly authentication: IntrospectionClientAuthentication;
}

/** What one call to {@link introspectToken} needs besides the token. */
export interface IntrospectionCall {
  readonly endpoint: URL;
  readonly client: IntrospectionClient;
  /** Milliseconds the whole exchange, answer body included, may take. */
  readonly timeout: number;
}

/** An RFC 7662 §2.2 answer as the endpoint sent it: a JSON object with a boolean `active`. */
export type IntrospectionResponse = Readonly<Record<string, unknown>> & {
  readonly active: boolean;
};

/**
 * Asks the introspection endpoint about `token` (RFC 7662 §2.1): a form-encoded POST with
 * `token_type_hint=access_token`, authenticated as a confidential client, asking for JSON.
 *
 * An endpoint that cannot be reached in time, or answers anything but 200 and a JSON object with
 * a boolean `active`, is a `StoreUnavailableError` (503): refusing would tell a client with a good
 * token to sign in again. One exception: a 400 `unsupported_token_type` (oidc-provider's answer
 * to a JWT) says the server will not introspect tokens of this kind, so the token is not active.
 * Errors name the endpoint, never the token.
 */
export async function introspectToken(
  call: IntrospectionCall,
  token: string,
): Promise<IntrospectionResponse> {
  const { endpoint, client } = call;
  const form = new URLSearchParams({ token, token_type_hint: 'access_token' });
  const headers: Record<string, string> = {
    accept: 'application/json',
    'content-type': 'application/x-www-form-urlencoded',
  };
  if (client.authentication === 'client_secret_post') {
    form.set('client_id', client.id);
    form.set('client_secret', client.secret);
  } else {
    headers['authorization'] = basicCredentials(client);
  }
  const unavailable = (why: string, cause?: unknown) =>
    new StoreUnavailableError(
      `introspection endpoint ${endpoint.href} ${why}`,
      cause === undefined ? {} : { cause },
    );
  let status: number;
  let body: string;
  try {
    const response = await fetch(endpoint, {
      method: 'POST',
      headers,
      body: form,
      // A redirect would carry the token and the client's secret elsewhere: refuse it as non-200.
      redirect: 'manual',
      signal: AbortSignal.timeout(call.timeout),
    });
    status = response.status;
    body = await response.text();
  } catch (error) {
    throw unavailable(`could not be reached in ${String(call.timeout)} ms`, error);
  }
  const answer = jsonObject(body);
  if (status === 400 && answer?.['error'] === 'unsupported_token_type') return { active: false };
  if (status !== 200) throw unavailable(`answered ${String(status)}`);
  if (answer === undefined || typeof answer['active'] !== 'boolean') {
    throw unavailable('answered something other than an RFC 7662 JSON object');
  }
  return answer as IntrospectionResponse;
}

/**
 * The `Authorization` header of `client_secret_basic`: the id and secret each form-encoded
 * (RFC 6749 §2.3.1), then joined by a colon and base64-encoded.
 */
function basicCredentials(client: IntrospectionClient): string {
  const encode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
  return `Basic ${toBase64(utf8(`${encode(client.id)}:${encode(client.secret)}`))}`;
}

function jsonObject(text: string): Readonly<Record<string, unknown>> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
