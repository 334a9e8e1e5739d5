// Real keys, real tokens and a real JWKS server for the JwtBearer tests.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';
import {
  base64url,
  exportJWK,
  generateKeyPair,
  SignJWT,
  type CryptoKey,
  type JWK,
  type JWTPayload,
} from 'jose';
import type { Outcome } from '../../src/core/outcome.js';
import type { RequestView } from '../../src/core/request.js';

/** What a JWT authenticator answers for a GET presenting `token` as a Bearer token. */
export function verifyBearer<T>(
  bearer: { verify(request: RequestView): Outcome<T> | Promise<Outcome<T>> },
  token: string,
): Promise<Outcome<T>> {
  const header = `Bearer ${token}`;
  return Promise.resolve(
    bearer.verify({
      method: 'GET',
      url: '/x',
      headers: { authorization: header },
      raw: { rawHeaders: ['Authorization', header] },
    }),
  );
}

export const ISSUER = 'https://issuer.test/';
export const AUDIENCE = 'https://api.test/';

/** A signing key pair with its public JWK (carrying `kid` and `alg`). */
export interface TestKey {
  readonly alg: string;
  readonly kid: string;
  readonly privateKey: CryptoKey;
  readonly publicKey: CryptoKey;
  readonly jwk: JWK;
}

/** A fresh key pair for `alg`, published under `kid`. */
export async function testKey(alg: string, kid = `${alg}-1`): Promise<TestKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  return { alg, kid, privateKey, publicKey, jwk };
}

/** Options of {@link sign}: claims are added to valid defaults; `undefined` removes one. */
export interface SignOptions {
  readonly claims?: Readonly<Record<string, unknown>>;
  /** The header's `kid`: the key's by default, none with `null`. */
  readonly kid?: string | null;
  /** Sign with this algorithm instead of the key's own. */
  readonly alg?: string;
}

/** A compact JWS signed with `key`: issuer and audience of the tests, valid for an hour. */
export async function sign(key: TestKey, options: SignOptions = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const defaults: Record<string, unknown> = {
    iss: ISSUER,
    aud: AUDIENCE,
    sub: 'user-1',
    iat: now,
    exp: now + 3600,
    scope: 'pets:read pets:write',
    ...options.claims,
  };
  const claims: JWTPayload = Object.fromEntries(
    Object.entries(defaults).filter(([, value]) => value !== undefined),
  );
  const kid = options.kid === undefined ? key.kid : options.kid;
  return new SignJWT(claims)
    .setProtectedHeader({ alg: options.alg ?? key.alg, ...(kid === null ? {} : { kid }) })
    .sign(key.privateKey);
}

/** A token with `header` and `claims` as given and the signature `signature`, made by hand. */
export function handMade(
  header: object,
  claims: Readonly<Record<string, unknown>>,
  signature = '',
): string {
  const part = (value: unknown) => base64url.encode(JSON.stringify(value));
  return `${part(header)}.${part(claims)}.${signature}`;
}

/** Seconds since the epoch, `offset` seconds from now. */
export function epoch(offset = 0): number {
  return Math.floor(Date.now() / 1000) + offset;
}

/** How the JWKS server answers. */
export type JwksMode = 'ok' | 'status-500' | 'garbage' | 'not-a-key-set' | 'hang';

/** A JWKS served over HTTP on a loopback port, counting the requests it gets. */
export interface JwksServer {
  readonly url: string;
  /** Requests answered (or left hanging) so far. */
  readonly hits: number;
  /** The keys published from now on. */
  keys: JWK[];
  mode: JwksMode;
  /** Stops listening and drops every connection, so that fetches fail to connect. */
  close(): Promise<void>;
}

/** Starts a JWKS server publishing `keys`, closed when the test ends. */
export async function jwksServer(t: TestContext, keys: JWK[]): Promise<JwksServer> {
  let hits = 0;
  const state = { keys, mode: 'ok' as JwksMode };
  const server: Server = createServer((request, response) => {
    hits += 1;
    switch (state.mode) {
      case 'hang':
        return; // never answers: the client's time-out must end it
      case 'status-500':
        response.writeHead(500).end('{"error":"down"}');
        return;
      case 'garbage':
        response.writeHead(200, { 'content-type': 'application/json' }).end('<html>');
        return;
      case 'not-a-key-set':
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"keys":"none"}');
        return;
      case 'ok':
        response
          .writeHead(200, { 'content-type': 'application/jwk-set+json' })
          .end(JSON.stringify({ keys: state.keys }));
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  };
  t.after(close);
  return {
    url: `http://127.0.0.1:${port}/.well-known/jwks.json`,
    get hits() {
      return hits;
    },
    get keys() {
      return state.keys;
    },
    set keys(next) {
      state.keys = next;
    },
    get mode() {
      return state.mode;
    },
    set mode(next) {
      state.mode = next;
    },
    close,
  };
}
