// The authorization server of `npm run bench`: oidc-provider as the tests run it
// (test/helpers/authorization-server.ts), in the bench's own process, with a resource whose
// tokens are JWTs and one whose tokens are opaque. A token of each, and a JWT bound to a DPoP key
// of the bench's, come from its token endpoint before any server starts; the Fastify server is
// told, in its environment, how to check them.
import type { JSONWebKeySet } from 'jose';
import {
  JWT_RESOURCE,
  OPAQUE_RESOURCE,
  startAuthorizationServer,
} from '../test/helpers/authorization-server.js';
import { proofKey, type ProofKey } from '../test/helpers/dpop-proof.js';
import {
  dpopUrl,
  OAUTH_ENV,
  OAUTH_LIFETIME_SECONDS,
  type OAuthSettings,
  type OAuthTokens,
} from './apps.js';
import { proofPool } from './dpop-proofs.js';

/** The bench's authorization server, its tokens, and what the Fastify server is told. */
export type TokenIssuer = Awaited<ReturnType<typeof startTokenIssuer>>;

/**
 * Starts the authorization server and gets its tokens; `close()` it when done. The pool of proofs
 * for the DPoP-bound token starts empty.
 */
export async function startTokenIssuer() {
  const server = await startAuthorizationServer({
    resources: {
      [JWT_RESOURCE]: { ttl: OAUTH_LIFETIME_SECONDS },
      [OPAQUE_RESOURCE]: { format: 'opaque', ttl: OAUTH_LIFETIME_SECONDS },
    },
  });
  try {
    const token = async (resource: string, dpop: ProofKey | false = false) =>
      (await server.clientCredentialsToken({ resource, scope: 'pets:read', dpop })).access_token;
    const dpopKey = await proofKey('ES256');
    const tokens: OAuthTokens = {
      jwt: await token(JWT_RESOURCE),
      opaque: await token(OPAQUE_RESOURCE),
      dpop: await token(JWT_RESOURCE, dpopKey),
      dpopKey,
    };
    const jwks = (await (await fetch(server.jwksUri)).json()) as JSONWebKeySet;
    const { clientId, clientSecret } = server.clients.introspector;
    const settings: OAuthSettings = {
      issuer: server.issuer,
      jwks,
      introspectionEndpoint: server.introspectionEndpoint,
      clientId,
      clientSecret,
      jwtResource: JWT_RESOURCE,
      opaqueResource: OPAQUE_RESOURCE,
    };
    const introspectionPath = new URL(server.introspectionEndpoint).pathname;
    const proofs = proofPool(dpopKey, { htu: dpopUrl(JWT_RESOURCE), token: tokens.dpop });
    return {
      authorizationServer: server,
      tokens,
      /** Proofs for `tokens.dpop` on the DPoP route, one a request. */
      proofs,
      /** The Fastify server's environment: the settings `fastifyApp` takes, as JSON. */
      env: { [OAUTH_ENV]: JSON.stringify(settings) },
      /** The requests its introspection endpoint has received so far. */
      introspections: () => server.requestCount(introspectionPath),
      close: async () => {
        proofs.close();
        await server.close();
      },
    };
  } catch (error) {
    await server.close();
    throw error;
  }
}
