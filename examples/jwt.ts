// An API that accepts JWTs from an issuer, verified against the issuer's JWKS. To run on its own,
// the example plays the issuer too: the demo-issuer block stands in for your identity provider
// (Auth0, Keycloak, Entra ID, …); everything else is what you would write.
import Fastify from 'fastify';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { vouch, withAuth } from 'vouch/fastify';
import { JwtBearer } from 'vouch/jwt';

const port = Number(process.env.PORT ?? 8000);
const issuer = `http://127.0.0.1:${port}/demo-issuer`; // yours: https://login.example.com/

const jwt = new JwtBearer({
  jwksUrl: `${issuer}/jwks.json`,
  issuer,
  audience: 'pets-api',
  algorithms: ['ES256'], // exactly what the issuer signs with
});

export const app = Fastify({ logger: { level: process.env.LOG_LEVEL ?? 'info' } });
await app.register(vouch, { auth: jwt }); // every route needs a valid token…

app.get(
  '/api/me',
  withAuth(jwt, async ({ auth }) => ({ subject: auth.sub, scope: auth['scope'] })),
);

// ---- Demo issuer, for this example only: a key pair made at start-up, its public half served
// as a JWKS, and a route minting a token for anyone who asks. Never issue tokens like this.
const { privateKey, publicKey } = await generateKeyPair('ES256');
const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: 'demo-1', alg: 'ES256' }] };
app.get('/demo-issuer/jwks.json', { auth: null }, async () => jwks); // …except the issuer's
app.post('/demo-issuer/token', { auth: null }, async () => ({
  access_token: await new SignJWT({ scope: 'pets:read' })
    .setProtectedHeader({ alg: 'ES256', kid: 'demo-1' })
    .setIssuer(issuer)
    .setAudience('pets-api')
    .setSubject('demo-user')
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(privateKey),
  token_type: 'Bearer',
}));
// ---- End of the demo issuer.

if (process.argv[1] === import.meta.filename) await app.listen({ port }); // run as a program
