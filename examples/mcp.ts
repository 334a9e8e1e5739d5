// An MCP server (the official SDK, Streamable HTTP) as an OAuth 2.1 protected resource: it takes
// access tokens from your authorization server, plain or bound to the client's key (DPoP), serves
// the metadata through which MCP clients find that server, and asks for more scope for its admin
// tool before the tool runs.
//
//   ISSUER=https://login.example.com npx tsx examples/mcp.ts
//
// ISSUER: the authorization server's issuer; RESOURCE: this server's URL, which clients ask tokens
// for (default http://127.0.0.1:$PORT/mcp); INTROSPECTION_CLIENT_ID, INTROSPECTION_CLIENT_SECRET:
// the client it introspects opaque tokens as (none: JWTs only); PORT (8000); LOG_LEVEL=silent.
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import express, {
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import type { JWTPayload } from 'jose';
import { z } from 'zod';
import { grantedScopes, HttpBearer, type Nothing } from 'vouch';
import { DPoPBearer } from 'vouch/dpop';
import { authOf, requireAuth, serveResourceMetadata, vouchErrorHandler } from 'vouch/express';
import { JwtBearer } from 'vouch/jwt';
import { IntrospectionBearer, protectedResource, type IntrospectionAnswer } from 'vouch/oauth';

const port = Number(process.env.PORT ?? 8000);
const issuer = process.env.ISSUER ?? exit('ISSUER must name the authorization server');
const resource = protectedResource({
  resource: process.env.RESOURCE ?? `http://127.0.0.1:${port}/mcp`, // what clients ask tokens for
  authorizationServers: [issuer],
});

// JWTs are the resource's access tokens (RFC 9068: its one audience, `typ` at+jwt), checked
// against the keys the server's metadata names; other tokens by asking it (RFC 7662), given a
// client to ask as. The resource's Bearer picks by the token's form, points to the metadata in its
// challenges, and accepts a token as the SDK's `AuthInfo` (the tools' `extra.authInfo`).
const jwt = new JwtBearer({ resource, algorithms: ['RS256'] }); // what your server signs with
const opaque = introspection();
const verifierOf = (token: string) => (opaque === undefined || isJwt(token) ? jwt : opaque);
const bearer = new HttpBearer({
  resource,
  authenticate: async (request, token) =>
    authInfoOf(token, await verifierOf(token).authenticate(request, token)),
});
// A token bound to the client's key (RFC 9449) comes as `Authorization: DPoP`, with a proof of
// that key in `DPoP`; the same verifiers check it against the proof's key. The Bearer refuses
// it, so a stolen bound token is no use without the key. Proofs seen are kept in memory, one
// process's: give several instances one store (`redisReplayStore` from vouch/dpop).
const dpop = new DPoPBearer({
  tokens: {
    resource,
    verifyToken: async (request, token, possession) =>
      authInfoOf(token, await verifierOf(token).verifyToken(request, token, possession)),
    scopesOf: (authInfo: AuthInfo) => authInfo.scopes,
  },
});
// Either scheme, so the 401 names both; Bearer first, as MCP clients read the first challenge.
const tokens = [bearer, dpop] as const;

/** Tools any caller with `mcp:tools` may run; a call of any other needs `mcp:admin` too. */
const OPEN_TOOLS = new Set(['whoami']);

export const app = express();
app.post(
  '/mcp',
  requireAuth(tokens, { scopes: ['mcp:tools'] }), // every message: a token with mcp:tools…
  readMessage, // …then the body, parsed once: what is authorised below is what runs
  async (req, res, next) => {
    if (callsAdminTool(messageOf(req))) next();
    else await serve(req, res);
  },
  requireAuth(tokens, { scopes: ['mcp:tools', 'mcp:admin'] }), // …an admin tool, mcp:admin too
  serve,
);
app.all('/mcp', requireAuth(tokens, { scopes: ['mcp:tools'] }), (_req, res) => {
  // Stateless: no stream to open (GET), no session to end (DELETE).
  res.status(405).set('allow', 'POST').json(jsonRpcError(-32000, 'Method not allowed.'));
});
serveResourceMetadata(app, resource); // scopes_supported: mcp:admin and mcp:tools, from above
app.use(
  vouchErrorHandler({
    log: (message, error) => {
      log(message, { error: error.message }); // the message alone: no request, no token
    },
  }),
);

/** The tools; a server and a transport per request, as the SDK serves without sessions. */
async function serve(req: Request, res: Response): Promise<void> {
  const server = new McpServer({ name: 'vouch-mcp-example', version: '1.0.0' });
  server.registerTool(
    'whoami',
    { description: 'Who the access token stands for' },
    ({ authInfo }) => ran('whoami', authInfo, callerOf(authInfo)),
  );
  server.registerTool(
    'admin_echo',
    { description: 'Echoes the text (needs mcp:admin)', inputSchema: { text: z.string() } },
    ({ text }, { authInfo }) => ran('admin_echo', authInfo, text),
  );
  const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true }); // no sessions
  res.on('close', () => {
    void server.close();
  });
  await server.connect(transport);
  // `req.auth` holds the AuthInfo DPoP or the Bearer accepted; said again for the SDK's type.
  const authorised = Object.assign(req, { auth: authOf(req, tokens) });
  await transport.handleRequest(authorised, res, messageOf(req));
}

/** A tool's answer, logged as run (the caller, never the token). */
function ran(tool: string, authInfo: AuthInfo | undefined, text: string) {
  log('tool ran', { tool, caller: callerOf(authInfo) });
  return { content: [{ type: 'text' as const, text }] };
}

/** The SDK's view of a verified token: `scopes` is also where vouch reads its scopes from. */
function authInfoOf(
  token: string,
  claims: JWTPayload | IntrospectionAnswer | Nothing,
): AuthInfo | undefined {
  const clientId = claims ? claims['client_id'] : undefined;
  if (!claims || typeof clientId !== 'string') return undefined; // AuthInfo needs the client
  return {
    token,
    clientId,
    scopes: [...grantedScopes(claims)],
    ...(typeof claims.exp === 'number' ? { expiresAt: claims.exp } : {}),
    extra: { sub: claims.sub },
  };
}

/** A compact JWS (RFC 7515 §7.1): three parts. Anything else is an opaque token. */
function isJwt(token: string): boolean {
  return token.split('.').length === 3;
}

/**
 * The introspecting Bearer, given `INTROSPECTION_CLIENT_ID` and `INTROSPECTION_CLIENT_SECRET`,
 * the client the resource introspects as; none without them.
 */
function introspection(): IntrospectionBearer | undefined {
  const clientId = process.env.INTROSPECTION_CLIENT_ID;
  const clientSecret = process.env.INTROSPECTION_CLIENT_SECRET;
  if (clientId === undefined && clientSecret === undefined) return undefined;
  if (!clientId || !clientSecret) {
    exit('INTROSPECTION_CLIENT_ID and INTROSPECTION_CLIENT_SECRET go together');
  }
  // Its endpoint is read from the server's metadata, as the JWT path's keys are.
  return new IntrospectionBearer({ resource, clientId, clientSecret });
}

/** Who a token stands for: its subject, or the client it was issued to when it names none. */
function callerOf(authInfo: AuthInfo | undefined): string {
  const sub = authInfo?.extra?.['sub'];
  return typeof sub === 'string' ? sub : (authInfo?.clientId ?? 'nobody');
}

/** Whether a JSON-RPC message, or any message of a batch, calls a tool outside OPEN_TOOLS. */
function callsAdminTool(message: unknown): boolean {
  if (Array.isArray(message)) return message.some(callsAdminTool);
  if (typeof message !== 'object' || message === null) return false;
  const { method, params } = message as { method?: unknown; params?: unknown };
  if (method !== 'tools/call') return false;
  const name: unknown =
    typeof params === 'object' && params !== null ? Reflect.get(params, 'name') : null;
  return !(typeof name === 'string' && OPEN_TOOLS.has(name));
}

/** Each request's JSON-RPC body, parsed once and frozen: decided on, then handed to the SDK. */
const messages = new WeakMap<Request, unknown>();
const parseJson: RequestHandler = express.json({ limit: '1mb' });

function readMessage(req: Request, res: Response, next: NextFunction): void {
  parseJson(req, res, (error?: unknown) => {
    const status = (error as { status?: unknown } | undefined)?.status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      res.status(status).json(jsonRpcError(-32700, 'Parse error'));
    } else if (error !== undefined) {
      next(error);
    } else {
      // Never undefined: given none, the SDK would read the body itself, a second time.
      messages.set(req, deepFreeze(req.body ?? null));
      next();
    }
  });
}

function messageOf(req: Request): unknown {
  if (!messages.has(req)) throw new Error('examples/mcp.ts: the message was not read');
  return messages.get(req);
}

function deepFreeze(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

function jsonRpcError(code: number, message: string) {
  return { jsonrpc: '2.0', error: { code, message }, id: null };
}

/** One JSON line on standard output (never a token or a header); none under LOG_LEVEL=silent. */
function log(message: string, fields: Record<string, unknown> = {}): void {
  if (process.env.LOG_LEVEL === 'silent') return;
  console.log(JSON.stringify({ time: new Date().toISOString(), msg: message, ...fields }));
}

function exit(message: string): never {
  console.error(`examples/mcp.ts: ${message}`);
  process.exit(1);
}

if (process.argv[1] === import.meta.filename) app.listen(port); // run as a program
