// Runs examples/mcp.ts as its reader would, in front of a real authorization server
// (oidc-provider), and talks to it with the official MCP SDK's client: tokens from the token
// endpoint, plain or bound to the client's key (DPoP, each request's proof signed by oauth4webapi),
// the SDK's own OAuth flow from the 401 to a tool call, and step-up to mcp:admin, whose refusal
// comes before the tool runs (the example logs every tool run; these tests read the log).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import {
  extractWWWAuthenticateParams,
  UnauthorizedError,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import * as oauth from 'oauth4webapi';
import { DPOP_ALGORITHMS } from '../src/dpop/index.js';
import { REDIRECT_URI, startAuthorizationServer } from '../test/helpers/authorization-server.js';
import { startExample, type RunningExample } from '../test/helpers/example.js';
import { freePort, until } from '../test/helpers/wait.js';

const OTHER_RESOURCE = 'https://other.test/api';
/** The algorithms a DPoPBearer allows by default, as its challenges name them. */
const ALGS = 'algs="ES256 ES384 ES512 Ed25519 EdDSA PS256 PS384 PS512 RS256 RS384 RS512"';
// The authorization server listens on plain HTTP, on loopback: what the option is for.
// eslint-disable-next-line @typescript-eslint/no-deprecated
const INSECURE = { [oauth.allowInsecureRequests]: true } as const;

describe('examples/mcp.ts', () => {
  it('is an OAuth protected resource that the MCP SDK client can use', async (t) => {
    /** Where an example will listen, and the URLs it will answer at. */
    const place = async () => {
      const port = String(await freePort());
      const metadataUrl = `http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`;
      return { port, resource: `http://127.0.0.1:${port}/mcp`, metadataUrl };
    };
    const [{ port, resource: mcp, metadataUrl }, opaquePlace] = await Promise.all([
      place(),
      place(),
    ]);
    const as = await startAuthorizationServer({
      resources: { [mcp]: {}, [opaquePlace.resource]: { format: 'opaque' }, [OTHER_RESOURCE]: {} },
    });
    t.after(() => as.close());
    const { introspector } = as.clients;
    const [example, introspecting] = await Promise.all([
      startExample(t, 'mcp.ts', { PORT: port, ISSUER: as.issuer, LOG_LEVEL: 'info' }),
      startExample(t, 'mcp.ts', {
        PORT: opaquePlace.port,
        ISSUER: as.issuer,
        LOG_LEVEL: 'info',
        INTROSPECTION_CLIENT_ID: introspector.clientId,
        INTROSPECTION_CLIENT_SECRET: introspector.clientSecret,
      }),
    ]);

    /** The tool runs an example has logged so far, as `tool caller`. */
    const runsOf = ({ output }: RunningExample) =>
      output
        .map((line) => JSON.parse(line) as { msg?: string; tool?: string; caller?: string })
        .filter((entry) => entry.msg === 'tool ran')
        .map((entry) => `${entry.tool} ${entry.caller}`);
    const runs = () => runsOf(example);
    const token = async (scope: string, resource = mcp) =>
      (await as.clientCredentialsToken({ scope, resource })).access_token;
    /** One JSON-RPC body posted as the SDK's transport would, but as written. */
    const post = (body: string, authorization?: string, url = mcp) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(authorization === undefined ? {} : { authorization }),
        },
        body,
      });
    const call = (id: number, name: string, args: object = {}) =>
      ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }) as const;
    const marker = await as.authorizationCodeToken({
      scope: 'mcp:tools',
      resource: mcp,
      account: 'marker',
    });
    /**
     * The runs logged since the `before`-th, up to a `whoami` of the account `marker` run last:
     * the log is in order, so whatever ran before the marker is in it.
     */
    const runsAfter = async (before: number) => {
      const response = await post(
        JSON.stringify(call(99, 'whoami')),
        `Bearer ${marker.access_token}`,
      );
      assert.equal(response.status, 200);
      await until(() => runs().slice(before).includes('whoami marker'), 'the marker in the log');
      return runs().slice(before);
    };
    const toolsOnly = `Bearer ${await token('mcp:tools')}`;
    const insufficient = `Bearer realm="api", error="insufficient_scope", scope="mcp:tools mcp:admin", resource_metadata="${metadataUrl}"`;
    /** The 401's challenges, Bearer's (with `error`, if any) then DPoP's, as one header value. */
    const unauthorized = (error = '', metadata = metadataUrl) =>
      [
        `Bearer realm="api"${error}, scope="mcp:tools", resource_metadata="${metadata}"`,
        `DPoP realm="api", ${ALGS}, scope="mcp:tools", resource_metadata="${metadata}"`,
      ].join(', ');

    await t.test(
      'without a token: 401 naming both schemes, the scope and the metadata (RFC 9728 §5.1)',
      async () => {
        const response = await post(JSON.stringify(call(1, 'whoami')));
        assert.equal(response.status, 401);
        assert.equal(response.headers.get('www-authenticate'), unauthorized());
        assert.deepEqual(await response.json(), { detail: 'Unauthorized' });
      },
    );

    await t.test('a token minted for another resource is refused (RFC 8707)', async () => {
      const response = await post(
        JSON.stringify(call(1, 'whoami')),
        `Bearer ${await token('mcp:tools', OTHER_RESOURCE)}`,
      );
      assert.equal(response.status, 401);
      assert.equal(
        response.headers.get('www-authenticate'),
        unauthorized(', error="invalid_token"'),
      );
    });

    await t.test('metadata: both scopes, each from a declaration that enforces it', async () => {
      const response = await fetch(metadataUrl);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('access-control-allow-origin'), '*');
      assert.deepEqual(await response.json(), {
        resource: mcp,
        authorization_servers: [as.issuer],
        scopes_supported: ['mcp:admin', 'mcp:tools'],
        bearer_methods_supported: ['header'],
        dpop_signing_alg_values_supported: DPOP_ALGORITHMS,
        dpop_bound_access_tokens_required: false,
      });
    });

    await t.test(
      'the SDK client, a token from the token endpoint: whoami and admin_echo',
      async () => {
        const authorization = `Bearer ${await token('mcp:tools mcp:admin')}`;
        const client = new Client({ name: 'test', version: '1.0.0' });
        await client.connect(
          new StreamableHTTPClientTransport(new URL(mcp), {
            requestInit: { headers: { authorization } },
          }),
        );
        t.after(() => client.close());
        const before = runs().length;
        assert.deepEqual((await client.callTool({ name: 'whoami' })).content, [
          { type: 'text', text: 'service' }, // a client credentials token's subject is the client
        ]);
        const echoed = await client.callTool({ name: 'admin_echo', arguments: { text: 'héllo' } });
        assert.deepEqual(echoed.content, [{ type: 'text', text: 'héllo' }]);
        await until(() => runs().length === before + 2, 'both runs in the log');
        assert.deepEqual(runs().slice(before), ['whoami service', 'admin_echo service']);
      },
    );

    await t.test('admin_echo without mcp:admin: 403 before the tool runs', async () => {
      const before = runs().length;
      const response = await post(JSON.stringify(call(1, 'admin_echo', { text: 'x' })), toolsOnly);
      assert.equal(response.status, 403);
      assert.equal(response.headers.get('www-authenticate'), insufficient);
      assert.deepEqual(await response.json(), { detail: 'Forbidden' });

      // The SDK client sees the same refusal, as an HTTP error of the call.
      const seen: Response[] = [];
      const client = new Client({ name: 'test', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(mcp), {
          requestInit: { headers: { authorization: toolsOnly } },
          fetch: async (url, init) => {
            const answer = await fetch(url, init);
            seen.push(answer);
            return answer;
          },
        }),
      );
      t.after(() => client.close());
      await assert.rejects(
        client.callTool({ name: 'admin_echo', arguments: { text: 'x' } }),
        (error) => error instanceof StreamableHTTPError && error.code === 403,
      );
      assert.equal(seen.at(-1)?.headers.get('www-authenticate'), insufficient);
      assert.deepEqual(await runsAfter(before), ['whoami marker']);
    });

    await t.test(
      'a batch calling admin_echo needs mcp:admin for all of it: none runs',
      async () => {
        const before = runs().length;
        const batch = [call(1, 'whoami'), call(2, 'admin_echo', { text: 'x' })];
        const response = await post(JSON.stringify(batch), toolsOnly);
        assert.equal(response.status, 403);
        assert.equal(response.headers.get('www-authenticate'), insufficient);
        assert.deepEqual(await runsAfter(before), ['whoami marker']);
      },
    );

    await t.test('a name given twice: the one decided on is the one that runs', async () => {
      // JSON.parse keeps the last of duplicate keys; the decision and the SDK share its result.
      const twice = (first: string, last: string) =>
        `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${first}","name":"${last}","arguments":{"text":"x"}}}`;
      const before = runs().length;
      const refused = await post(twice('whoami', 'admin_echo'), toolsOnly);
      assert.equal(refused.status, 403);
      const allowed = await post(twice('admin_echo', 'whoami'), toolsOnly);
      assert.equal(allowed.status, 200);
      const answer = (await allowed.json()) as { result: { content: unknown } };
      assert.deepEqual(answer.result.content, [{ type: 'text', text: 'service' }]);
      assert.deepEqual(await runsAfter(before), ['whoami service', 'whoami marker']);
    });

    await t.test('opaque tokens, introspected (RFC 7662): the same answers', async () => {
      const { access_token: opaque } = await as.clientCredentialsToken({
        scope: 'mcp:tools',
        resource: opaquePlace.resource,
      });
      assert.ok(!opaque.includes('.'), 'not a JWT');
      const admin = JSON.stringify(call(1, 'admin_echo', { text: 'x' }));
      const response = await post(admin, `Bearer ${opaque}`, opaquePlace.resource);
      assert.equal(response.status, 403);
      assert.equal(
        response.headers.get('www-authenticate'),
        `Bearer realm="api", error="insufficient_scope", scope="mcp:tools mcp:admin", resource_metadata="${opaquePlace.metadataUrl}"`,
      );

      const client = new Client({ name: 'test', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(opaquePlace.resource), {
          requestInit: { headers: { authorization: `Bearer ${opaque}` } },
        }),
      );
      t.after(() => client.close());
      assert.deepEqual((await client.callTool({ name: 'whoami' })).content, [
        { type: 'text', text: 'service' }, // the answer names no subject: the client
      ]);
      // The log is in order: admin_echo, had it run, would come first.
      await until(() => runsOf(introspecting).length > 0, 'the whoami run');
      assert.deepEqual(runsOf(introspecting), ['whoami service']);
    });

    const metadata = await oauth.processDiscoveryResponse(
      new URL(as.issuer),
      await oauth.discoveryRequest(new URL(as.issuer), INSECURE),
    );
    /** A token for `resource` bound to a fresh key of the client's (RFC 9449 §5), and its handle. */
    const boundToken = async (scope: string, resource: string) => {
      const client: oauth.Client = { client_id: as.clients.service.clientId };
      const handle = oauth.DPoP(client, await oauth.generateKeyPair('ES256'));
      const response = await oauth.clientCredentialsGrantRequest(
        metadata,
        client,
        oauth.ClientSecretBasic(as.clients.service.clientSecret),
        { scope, resource },
        { ...INSECURE, DPoP: handle },
      );
      const answer = await oauth.processClientCredentialsResponse(metadata, client, response);
      assert.equal(answer.token_type, 'dpop');
      return { token: answer.access_token, handle };
    };
    /** An SDK client sending `token` as DPoP-bound, with a fresh proof of `handle`'s key each time. */
    const dpopClient = async (url: string, token: string, handle: oauth.DPoPHandle) => {
      const seen: Response[] = [];
      const client = new Client({ name: 'test', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url), { fetch: dpopFetch(token, handle, seen) }),
      );
      t.after(() => client.close());
      return { client, seen };
    };

    for (const [form, place, runner] of [
      ['a JWT', { resource: mcp, metadataUrl }, example],
      ['an opaque token, introspected', opaquePlace, introspecting],
    ] as const) {
      await t.test(
        `DPoP (RFC 9449), ${form}: the SDK client calls whoami and admin_echo`,
        async () => {
          const { token: bound, handle } = await boundToken('mcp:tools mcp:admin', place.resource);
          const { client, seen } = await dpopClient(place.resource, bound, handle);
          const before = runsOf(runner).length;
          assert.deepEqual((await client.callTool({ name: 'whoami' })).content, [
            { type: 'text', text: 'service' },
          ]);
          const echoed = await client.callTool({
            name: 'admin_echo',
            arguments: { text: 'bound' },
          });
          assert.deepEqual(echoed.content, [{ type: 'text', text: 'bound' }]);
          assert.ok(seen.every((response) => response.ok || response.status === 405));
          await until(() => runsOf(runner).length === before + 2, 'both runs in the log');
          assert.deepEqual(runsOf(runner).slice(before), ['whoami service', 'admin_echo service']);
        },
      );
    }

    await t.test(
      "DPoP without mcp:admin: admin_echo 403 with DPoP's challenge, before the tool runs",
      async () => {
        const { token: bound, handle } = await boundToken('mcp:tools', mcp);
        const { client, seen } = await dpopClient(mcp, bound, handle);
        const before = runs().length;
        await assert.rejects(
          client.callTool({ name: 'admin_echo', arguments: { text: 'x' } }),
          (error) => error instanceof StreamableHTTPError && error.code === 403,
        );
        assert.equal(
          seen.at(-1)?.headers.get('www-authenticate'),
          `DPoP realm="api", error="insufficient_scope", ${ALGS}, scope="mcp:tools mcp:admin", resource_metadata="${metadataUrl}"`,
        );
        assert.deepEqual(await runsAfter(before), ['whoami marker']);
      },
    );

    await t.test('a DPoP-bound token sent as Bearer: 401, naming both schemes (§7.1)', async () => {
      for (const place of [{ resource: mcp, metadataUrl }, opaquePlace]) {
        const { token: bound } = await boundToken('mcp:tools', place.resource);
        const response = await post(
          JSON.stringify(call(1, 'whoami')),
          `Bearer ${bound}`,
          place.resource,
        );
        assert.equal(response.status, 401, place.resource);
        assert.equal(
          response.headers.get('www-authenticate'),
          unauthorized(', error="invalid_token"', place.metadataUrl),
        );
      }
    });

    await t.test(
      "the SDK's OAuth client: from the 401 to a token, a call and step-up",
      async () => {
        const seen: { url: string; body: string; response: Response }[] = [];
        const recording = async (url: string | URL, init?: RequestInit) => {
          const response = await fetch(url, init);
          const body = init?.body instanceof URLSearchParams ? init.body.toString() : '';
          seen.push({ url: String(url), body, response });
          return response;
        };
        const provider = new PublicClient(as.clients.app.clientId);
        const connect = async () => {
          const transport = new StreamableHTTPClientTransport(new URL(mcp), {
            authProvider: provider,
            fetch: recording,
          });
          const client = new Client({ name: 'test', version: '1.0.0' });
          await client.connect(transport);
          t.after(() => client.close());
          return { client, transport };
        };
        /** Signs in as `user-1` and consents, over HTTP; the code the client is sent back with. */
        const consent = async () => {
          const back = await as.authorize(provider.authorizationUrl!);
          assert.equal(back.origin + back.pathname, REDIRECT_URI);
          return back.searchParams.get('code')!;
        };

        // No token: the SDK follows the 401's resource_metadata to the authorization server.
        const first = new StreamableHTTPClientTransport(new URL(mcp), {
          authProvider: provider,
          fetch: recording,
        });
        await assert.rejects(
          new Client({ name: 'test', version: '1.0.0' }).connect(first),
          UnauthorizedError,
        );
        const [refused, metadata] = seen;
        assert.equal(refused?.response.status, 401);
        assert.equal(
          extractWWWAuthenticateParams(refused.response).resourceMetadataUrl?.href,
          metadataUrl,
        );
        assert.equal(metadata?.url, metadataUrl);
        const asked = provider.authorizationUrl!;
        assert.equal(asked.origin, as.origin);
        assert.equal(asked.searchParams.get('resource'), mcp); // RFC 8707
        assert.equal(asked.searchParams.get('scope'), 'mcp:tools'); // the challenge's
        assert.equal(asked.searchParams.get('code_challenge_method'), 'S256');

        await first.finishAuth(await consent());
        const exchange = seen.find((one) => one.url === as.tokenEndpoint);
        const form = new URLSearchParams(exchange?.body);
        assert.equal(form.get('grant_type'), 'authorization_code');
        assert.equal(form.get('resource'), mcp);
        assert.ok(form.get('code_verifier'), 'PKCE');
        assert.equal(provider.saved?.scope, 'mcp:tools');

        const { client, transport } = await connect();
        assert.deepEqual((await client.callTool({ name: 'whoami' })).content, [
          { type: 'text', text: 'user-1' },
        ]);

        // admin_echo: the 403 sends the SDK back for mcp:admin, before the tool runs.
        const before = runs().length;
        await assert.rejects(
          client.callTool({ name: 'admin_echo', arguments: { text: 'stepped up' } }),
          UnauthorizedError,
        );
        assert.equal(provider.authorizationUrl?.searchParams.get('scope'), 'mcp:tools mcp:admin');
        await transport.finishAuth(await consent());
        assert.equal(provider.saved.scope, 'mcp:tools mcp:admin');
        const { client: admin } = await connect();
        const echoed = await admin.callTool({
          name: 'admin_echo',
          arguments: { text: 'stepped up' },
        });
        assert.deepEqual(echoed.content, [{ type: 'text', text: 'stepped up' }]);
        assert.deepEqual(await runsAfter(before), ['admin_echo user-1', 'whoami marker']);
      },
    );
  });
});

/**
 * What an MCP client application keeps for the SDK's OAuth support, in memory: a public client
 * registered in advance (`app`, authorization code + PKCE), its tokens and its PKCE verifier. The
 * authorization URL the SDK would open in a browser is kept for the test to follow.
 */
class PublicClient implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  saved: OAuthTokens | undefined;
  #verifier = '';
  readonly #clientId: string;

  constructor(clientId: string) {
    this.#clientId = clientId;
  }

  get redirectUrl(): string {
    return REDIRECT_URI;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      client_name: 'vouch MCP example test',
    };
  }

  clientInformation() {
    return { client_id: this.#clientId };
  }

  tokens() {
    return this.saved;
  }

  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }

  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }

  saveCodeVerifier(verifier: string) {
    this.#verifier = verifier;
  }

  codeVerifier() {
    return this.#verifier;
  }
}

/**
 * A `fetch` for the SDK's transport sending `token` DPoP-bound (RFC 9449): oauth4webapi puts it in
 * `Authorization: DPoP` and signs a fresh proof of `handle`'s key for each request (taking up a
 * `DPoP-Nonce` when given one). Responses, challenges too, go back to the SDK as they came, and
 * into `seen`.
 */
function dpopFetch(token: string, handle: oauth.DPoPHandle, seen: Response[]) {
  return async (url: string | URL, init: RequestInit = {}): Promise<Response> => {
    const response = await oauth
      .protectedResourceRequest(
        token,
        init.method ?? 'GET',
        new URL(url),
        new Headers(init.headers),
        init.body as string | null | undefined,
        { ...INSECURE, DPoP: handle, ...(init.signal ? { signal: init.signal } : {}) },
      )
      .catch((error: unknown) => {
        if (error instanceof oauth.WWWAuthenticateChallengeError) return error.response;
        throw error;
      });
    seen.push(response);
    return response;
  };
}
