// A real OAuth 2.1 authorization server for the tests: oidc-provider, in process, on a loopback
// port the system picks. Resource indicators (RFC 8707) with JWT access tokens (RFC 9068) or
// opaque ones per resource, client credentials, authorization code + PKCE with the login and
// consent steps scripted over HTTP, DPoP-bound and certificate-bound tokens, introspection (RFC
// 7662) and revocation. Every token comes from its token endpoint over HTTP.
import { once } from 'node:events';
import { createHash, randomBytes, randomUUID, X509Certificate } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import Provider, { errors, type Configuration, type ResourceServer } from 'oidc-provider';
import { proofKey, signProof, type ProofKey } from './dpop-proof.js';
import { memoryStore } from './oidc-memory-store.js';

/** A resource identifier whose tokens are JWTs, served by default. */
export const JWT_RESOURCE = 'https://api.test/mcp';
/** A resource identifier whose tokens are opaque (introspected), served by default. */
export const OPAQUE_RESOURCE = 'https://opaque.test/api';
/** The scopes every resource grants unless it says otherwise. */
export const DEFAULT_SCOPES = ['mcp:tools', 'mcp:admin', 'pets:read'] as const;
/** Where the public client is sent back after the authorization step (never dialled). */
export const REDIRECT_URI = 'http://127.0.0.1/callback';

/** How the server mints access tokens for one resource identifier. */
export interface ResourceOptions {
  /** `jwt` (RFC 9068, `typ: at+jwt`, the default) or `opaque` (introspected). */
  readonly format?: 'jwt' | 'opaque';
  /** The scopes granted for it (default {@link DEFAULT_SCOPES}). */
  readonly scopes?: readonly string[];
  /** Seconds an access token lives (default 300). */
  readonly ttl?: number;
  /** Signing algorithm of its JWTs (default RS256). */
  readonly alg?: 'RS256' | 'ES256';
  /** Off-profile, as some servers mint: the JOSE `typ` its JWTs carry instead of `at+jwt`. */
  readonly typ?: string;
  /** Off-profile, as some servers mint: audiences added to `aud` beside the resource. */
  readonly extraAudiences?: readonly string[];
}

/** Options of {@link startAuthorizationServer}. */
export interface AuthorizationServerOptions {
  /** The resources it mints tokens for (default {@link JWT_RESOURCE}, {@link OPAQUE_RESOURCE}). */
  readonly resources?: Readonly<Record<string, ResourceOptions>>;
  /** A path the issuer identifier ends with, e.g. `/tenant-a` (default none). */
  readonly issuerPath?: string;
  /** Serve RFC 8414 metadata at `/.well-known/oauth-authorization-server<path>` (default true). */
  readonly rfc8414?: boolean;
  /** The issuer it claims in metadata and tokens, when it must differ from where it listens. */
  readonly issuer?: string;
}

/** A client registered with the server; `clientSecret` only for confidential ones. */
export interface TestClient {
  readonly clientId: string;
  readonly clientSecret?: string;
}

/** An access token response (RFC 6749 §5.1). */
export interface TokenResponse {
  readonly access_token: string;
  readonly token_type: string;
  readonly expires_in: number;
  readonly scope?: string;
  readonly refresh_token?: string;
  readonly id_token?: string;
}

/** What a token request names, beside its grant. */
export interface TokenRequest {
  readonly scope?: string;
  readonly resource?: string;
  /**
   * Bind the token with a DPoP proof (RFC 9449), signed with a fresh key or with this one: it then
   * carries `cnf.jkt`.
   */
  readonly dpop?: boolean | ProofKey;
  /**
   * The client certificate (DER) the token is bound to (RFC 8705 §3): it then carries
   * `cnf.x5t#S256`. Presented as a TLS-terminating proxy in front of the server would forward
   * it, in an RFC 9440 `Client-Cert` header; the `mtls` client's tokens need one.
   */
  readonly certificate?: Uint8Array;
}

export interface AuthorizationServer {
  readonly issuer: string;
  /** Where it listens, e.g. `http://127.0.0.1:43210` (the issuer without its path). */
  readonly origin: string;
  readonly jwksUri: string;
  readonly authorizationEndpoint: string;
  readonly tokenEndpoint: string;
  readonly introspectionEndpoint: string;
  readonly revocationEndpoint: string;
  /**
   * `service` (confidential, client credentials), `app` (public, authorization code + PKCE,
   * redirect {@link REDIRECT_URI}), `introspector` (confidential, a resource server: it may
   * introspect any token, and is granted nothing) and `mtls` (as `service`, its tokens bound to
   * the client certificate it presents).
   */
  readonly clients: Clients;
  /** A token for a confidential client (default `service`) from the client credentials grant. */
  clientCredentialsToken(request?: TokenRequest & { clientId?: string }): Promise<TokenResponse>;
  /** A token for the public client from authorization code + PKCE, the user `account` consenting. */
  authorizationCodeToken(request?: TokenRequest & { account?: string }): Promise<TokenResponse>;
  /**
   * Follows an authorization request URL as a browser would, signing in as `account` (default
   * `user-1`) and consenting to everything asked; the URL the client is sent back to, with its
   * `code` (or `error`).
   */
  authorize(authorizationUrl: string | URL, account?: string): Promise<URL>;
  /** Revokes a token this harness obtained (RFC 7009), as the client it was issued to. */
  revoke(token: string): Promise<void>;
  /**
   * A JWT signed with this server's own key, made by hand (for what it would never mint): its
   * header is `alg`, `kid` and `typ: at+jwt`, with `header` over them (`undefined` removes one).
   */
  forge(
    payload: Readonly<Record<string, unknown>>,
    header?: Readonly<Record<string, unknown>>,
  ): Promise<string>;
  /** Requests received so far whose path is `path` (all of them without it). */
  requestCount(path?: string): number;
  /** While true, requests are left unanswered (a server that hangs); `close()` ends them. */
  stalled: boolean;
  /** Stops listening and drops every connection; idempotent. */
  close(): Promise<void>;
}

/** Starts an authorization server on a free loopback port; `close()` it when done. */
export async function startAuthorizationServer(
  options: AuthorizationServerOptions = {},
): Promise<AuthorizationServer> {
  const resources = options.resources ?? {
    [JWT_RESOURCE]: {},
    [OPAQUE_RESOURCE]: { format: 'opaque' },
  };
  const prefix = options.issuerPath?.replace(/\/$/, '') ?? '';
  const paths: string[] = [];
  const held = new Set<ServerResponse>();
  let stalled = false;
  let handle: (request: IncomingMessage, response: ServerResponse) => void = () => undefined;
  const server = createServer((request, response) => {
    paths.push(new URL(request.url ?? '/', 'http://x').pathname);
    if (stalled) {
      held.add(response);
      return;
    }
    handle(request, response);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const issuer = options.issuer ?? `${origin}${prefix}`;

  const signingKeys = await Promise.all((['RS256', 'ES256'] as const).map(signingKey));
  const clients = {
    service: { clientId: 'service', clientSecret: secret() },
    app: { clientId: 'app' },
    introspector: { clientId: 'introspector', clientSecret: secret() },
    mtls: { clientId: 'mtls', clientSecret: secret() },
  };
  const provider = new Provider(issuer, configuration(resources, signingKeys, clients, prefix));
  const callback = provider.callback();
  handle = (request, response) => {
    route(provider, callback, prefix, options.rfc8414 ?? true, request, response);
  };

  const discovered = await fetch(`${origin}${prefix}/.well-known/openid-configuration`);
  const metadata = (await discovered.json()) as Record<string, string>;
  // Counted from here on: the requests of the tests, not the harness's own.
  paths.length = 0;
  const endpoint = (name: string) => {
    const url = metadata[name];
    if (url === undefined) throw new Error(`the test authorization server has no ${name}`);
    // Dialled where it listens, whatever issuer it claims.
    return `${origin}${new URL(url).pathname}`;
  };
  const tokenEndpoint = endpoint('token_endpoint');
  const authorizationEndpoint = endpoint('authorization_endpoint');
  const revocationEndpoint = endpoint('revocation_endpoint');
  const owners = new Map<string, TestClient>();

  const requestToken = async (
    client: TestClient,
    body: Record<string, string | undefined>,
    { dpop, certificate }: TokenRequest,
  ): Promise<TokenResponse> => {
    // RFC 9449 §5: the proof of a token request is about the POST to the token endpoint.
    const proof = { htm: 'POST', htu: tokenEndpoint };
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      ...clientAuthentication(client),
      ...(dpop === undefined || dpop === false
        ? {}
        : { dpop: await signProof(dpop === true ? await proofKey() : dpop, proof) }),
      ...(certificate === undefined
        ? {}
        : { 'client-cert': `:${Buffer.from(certificate).toString('base64')}:` }),
    };
    const form = new URLSearchParams(
      Object.entries(body).filter((entry): entry is [string, string] => entry[1] !== undefined),
    );
    if (client.clientSecret === undefined) form.set('client_id', client.clientId);
    const response = await fetch(tokenEndpoint, { method: 'POST', headers, body: form });
    const answer = (await response.json()) as TokenResponse;
    if (response.status !== 200) {
      throw new Error(`token endpoint: ${response.status} ${JSON.stringify(answer)}`);
    }
    owners.set(answer.access_token, client);
    return answer;
  };

  const authorize = async (authorizationUrl: string | URL, account = 'user-1'): Promise<URL> => {
    const cookies = new Map<string, string>();
    let next = new URL(authorizationUrl);
    let method = 'GET';
    for (let hop = 0; hop < 12; hop += 1) {
      // Dialled where it listens, whatever issuer it claims.
      const url = new URL(`${next.pathname}${next.search}`, origin);
      const response = await fetch(url, {
        method,
        redirect: 'manual',
        headers: {
          cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
          ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        ...(method === 'POST' ? { body: new URLSearchParams({ account }) } : {}),
      });
      keepCookies(cookies, response.headers.getSetCookie());
      const location = response.headers.get('location');
      if (location === null) {
        throw new Error(`authorization stopped at ${url.pathname}: ${response.status}`);
      }
      next = new URL(location, url);
      if (next.href.startsWith(REDIRECT_URI)) return next;
      // The login and consent steps are answered by posting to the interaction's URL.
      method = next.pathname.startsWith(`${prefix}/interaction/`) ? 'POST' : 'GET';
    }
    throw new Error('authorization did not come back to the client');
  };

  let closed: Promise<void> | undefined;
  return {
    issuer,
    origin,
    jwksUri: endpoint('jwks_uri'),
    authorizationEndpoint,
    tokenEndpoint,
    introspectionEndpoint: endpoint('introspection_endpoint'),
    revocationEndpoint,
    clients,
    clientCredentialsToken({ clientId = 'service', scope, resource, ...binding } = {}) {
      const client = Object.values(clients).find((one) => one.clientId === clientId) ?? {
        clientId,
      };
      return requestToken(client, { grant_type: 'client_credentials', scope, resource }, binding);
    },
    async authorizationCodeToken({ scope, resource, account, ...binding } = {}) {
      const verifier = randomBytes(32).toString('base64url');
      const url = new URL(authorizationEndpoint);
      const query: Record<string, string | undefined> = {
        client_id: clients.app.clientId,
        response_type: 'code',
        redirect_uri: REDIRECT_URI,
        scope,
        resource,
        state: randomUUID(),
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
      };
      for (const [name, value] of Object.entries(query)) {
        if (value !== undefined) url.searchParams.set(name, value);
      }
      const back = await authorize(url, account);
      const code = back.searchParams.get('code');
      if (code === null) throw new Error(`authorization refused: ${back.search}`);
      const body = {
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        redirect_uri: REDIRECT_URI,
        resource,
      };
      return requestToken(clients.app, body, binding);
    },
    authorize,
    async revoke(token) {
      const client = owners.get(token);
      if (client === undefined) throw new Error('revoke: not a token this harness obtained');
      const body = new URLSearchParams({ token });
      if (client.clientSecret === undefined) body.set('client_id', client.clientId);
      const response = await fetch(revocationEndpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...clientAuthentication(client),
        },
        body,
      });
      if (response.status !== 200) {
        throw new Error(`revocation endpoint: ${response.status} ${await response.text()}`);
      }
    },
    async forge(payload, header = {}) {
      const [key] = signingKeys;
      return new SignJWT(payload)
        .setProtectedHeader({
          alg: key!.alg,
          kid: key!.kid,
          typ: 'at+jwt',
          ...header,
        })
        .sign(await importJWK(key!.jwk, key!.alg));
    },
    requestCount: (path) =>
      path === undefined ? paths.length : paths.filter((one) => one === path).length,
    get stalled() {
      return stalled;
    },
    set stalled(value) {
      stalled = value;
    },
    close() {
      closed ??= (async () => {
        stalled = false;
        for (const response of held) response.destroy();
        server.closeAllConnections();
        server.close();
        await once(server, 'close');
      })();
      return closed;
    },
  };
}

interface SigningKey {
  readonly alg: 'RS256' | 'ES256';
  readonly kid: string;
  /** The private JWK, as oidc-provider's keystore takes it. */
  readonly jwk: JWK;
}

async function signingKey(alg: 'RS256' | 'ES256'): Promise<SigningKey> {
  const { privateKey } = await generateKeyPair(alg, { extractable: true });
  const kid = `${alg}-${randomBytes(4).toString('hex')}`;
  return { alg, kid, jwk: { ...(await exportJWK(privateKey)), kid, alg, use: 'sig' } };
}

function secret(): string {
  return randomBytes(24).toString('base64url');
}

/** The clients registered with the server. */
interface Clients {
  readonly service: Required<TestClient>;
  readonly app: TestClient;
  readonly introspector: Required<TestClient>;
  readonly mtls: Required<TestClient>;
}

function configuration(
  resources: Readonly<Record<string, ResourceOptions>>,
  keys: readonly SigningKey[],
  clients: Clients,
  prefix: string,
): Configuration {
  const resourceServer = (indicator: string): ResourceServer => {
    const options = resources[indicator];
    if (options === undefined) throw new errors.InvalidTarget();
    return {
      scope: (options.scopes ?? DEFAULT_SCOPES).join(' '),
      accessTokenTTL: options.ttl ?? 300,
      ...(options.format === 'opaque'
        ? { accessTokenFormat: 'opaque' }
        : { accessTokenFormat: 'jwt', jwt: { sign: { alg: options.alg ?? 'RS256' } } }),
    };
  };
  return {
    adapter: memoryStore(),
    jwks: { keys: keys.map((key) => key.jwk) },
    cookies: { keys: [secret()] },
    clients: [
      {
        client_id: clients.service.clientId,
        client_secret: clients.service.clientSecret,
        grant_types: ['client_credentials'],
        response_types: [],
        redirect_uris: [],
        token_endpoint_auth_method: 'client_secret_basic',
      },
      {
        client_id: clients.app.clientId,
        application_type: 'native',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: [REDIRECT_URI],
        token_endpoint_auth_method: 'none',
      },
      {
        client_id: clients.mtls.clientId,
        client_secret: clients.mtls.clientSecret,
        grant_types: ['client_credentials'],
        response_types: [],
        redirect_uris: [],
        token_endpoint_auth_method: 'client_secret_basic',
        tls_client_certificate_bound_access_tokens: true,
      },
      {
        client_id: clients.introspector.clientId,
        client_secret: clients.introspector.clientSecret,
        grant_types: [],
        response_types: [],
        redirect_uris: [],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    findAccount: (_ctx, accountId) => ({ accountId, claims: () => ({ sub: accountId }) }),
    interactions: { url: (_ctx, interaction) => `${prefix}/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      mTLS: {
        enabled: true,
        certificateBoundAccessTokens: true,
        // As from a TLS-terminating proxy in front of the server (RFC 9440).
        getCertificate: (ctx) => {
          const value = ctx.get('client-cert');
          return /^:[A-Za-z0-9+/=]+:$/.test(value)
            ? new X509Certificate(Buffer.from(value.slice(1, -1), 'base64'))
            : undefined;
        },
      },
      introspection: {
        enabled: true,
        // The resource server may introspect any token; a client only its own.
        allowedPolicy: (_ctx, client, token) =>
          client.clientId === clients.introspector.clientId || client.clientId === token.clientId,
      },
      revocation: {
        enabled: true,
        allowedPolicy: (_ctx, client, token) => client.clientId === token.clientId,
      },
      resourceIndicators: {
        enabled: true,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => resourceServer(indicator),
      },
    },
    formats: {
      customizers: {
        jwt: (_ctx, token, parts) => {
          const indicator = token.resourceServer?.identifier();
          const options = indicator === undefined ? undefined : resources[indicator];
          if (options?.typ !== undefined) parts.header = { ...parts.header, typ: options.typ };
          if (options?.extraAudiences !== undefined) {
            parts.payload['aud'] = [indicator, ...options.extraAudiences];
          }
        },
      },
    },
    clientBasedCORS: () => false,
    ttl: {
      AccessToken: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? 300,
      ClientCredentials: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? 300,
      AuthorizationCode: 60,
      Grant: 3600,
      IdToken: 300,
      Interaction: 300,
      RefreshToken: 3600,
      Session: 3600,
    },
  };
}

/**
 * Hands each request to oidc-provider under the issuer's path (mounted as Express would:
 * `originalUrl` keeps the path, `url` loses it), answers the scripted interaction, and serves
 * the RFC 8414 document where §3.1 puts it, before the issuer's path (or not at all).
 */
function route(
  provider: Provider,
  callback: (request: IncomingMessage, response: ServerResponse) => unknown,
  prefix: string,
  rfc8414: boolean,
  request: IncomingMessage,
  response: ServerResponse,
): void {
  const original = request.url ?? '/';
  const path = new URL(original, 'http://x').pathname;
  const rfc8414Path = '/.well-known/oauth-authorization-server';
  let inner: string | undefined;
  if (path === `${rfc8414Path}${prefix}`) {
    if (rfc8414) inner = '/.well-known/openid-configuration';
  } else if (path.startsWith(`${prefix}/`) && !path.startsWith(`${prefix}${rfc8414Path}`)) {
    // oidc-provider also answers the RFC 8414 path appended to the issuer: only the one above is.
    inner = original.slice(prefix.length);
  }
  if (inner === undefined) {
    response.writeHead(404).end();
    return;
  }
  Object.assign(request, { originalUrl: `${prefix}${inner}`, url: inner });
  if (inner.startsWith('/interaction/')) {
    interact(provider, request, response).catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
    });
    return;
  }
  void callback(request, response);
}

/**
 * The login and consent steps, scripted: a POST with `account` signs that account in, then
 * consents to every scope and resource asked; a GET describes the pending prompt as JSON.
 */
async function interact(
  provider: Provider,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const details = await provider.interactionDetails(request, response);
  const { prompt } = details;
  if (request.method !== 'POST') {
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ uid: details.uid, prompt: prompt.name, details: prompt.details }));
    return;
  }
  let body = '';
  for await (const chunk of request) body += String(chunk);
  if (prompt.name === 'login') {
    const account = new URLSearchParams(body).get('account');
    if (account === null || account === '') {
      response.writeHead(400).end('account needed');
      return;
    }
    await provider.interactionFinished(request, response, { login: { accountId: account } });
    return;
  }
  const accountId = details.session?.accountId;
  const clientId = details.params['client_id'];
  if (prompt.name !== 'consent' || accountId === undefined || typeof clientId !== 'string') {
    response.writeHead(400).end(`cannot answer the ${prompt.name} prompt`);
    return;
  }
  const grant =
    (details.grantId === undefined ? undefined : await provider.Grant.find(details.grantId)) ??
    new provider.Grant({ accountId, clientId });
  const missing = prompt.details as {
    missingOIDCScope?: string[];
    missingOIDCClaims?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
    grant.addResourceScope(indicator, scopes.join(' '));
  }
  const grantId = await grant.save();
  await provider.interactionFinished(request, response, { consent: { grantId } });
}

function clientAuthentication(client: TestClient): Record<string, string> {
  if (client.clientSecret === undefined) return {};
  // RFC 6749 §2.3.1: each part form-encoded before base64.
  const credentials = `${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`;
  return { authorization: `Basic ${Buffer.from(credentials).toString('base64')}` };
}

/** Keeps what `Set-Cookie` lines set, and forgets what they expire. */
function keepCookies(cookies: Map<string, string>, lines: readonly string[]): void {
  for (const line of lines) {
    const [pair = ''] = line.split(';');
    const equals = pair.indexOf('=');
    const name = pair.slice(0, equals).trim();
    const value = pair.slice(equals + 1).trim();
    if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) cookies.delete(name);
    else cookies.set(name, value);
  }
}
