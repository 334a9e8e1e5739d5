// RFC 9110 §11 (HTTP Authentication): the credentials and challenge grammar, the separator
// between scheme and credentials, quoted-string escaping, WWW-Authenticate lines, and a repeated
// Authorization field treated as ambiguous.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { APIKeyCookie } from '../../src/api-key/api-key-cookie.js';
import { APIKeyHeader } from '../../src/api-key/api-key-header.js';
import { APIKeyQuery } from '../../src/api-key/api-key-query.js';
import { allOf } from '../../src/core/all-of.js';
import { resolveAuth, type AuthSpec } from '../../src/core/auth-spec.js';
import { authenticate, type AuthFailure } from '../../src/core/authenticate.js';
import type { Authenticator } from '../../src/core/authenticator.js';
import { VouchError } from '../../src/core/errors.js';
import type { Outcome } from '../../src/core/outcome.js';
import type { RequestView } from '../../src/core/request.js';
import { HttpBasic } from '../../src/http/http-basic.js';
import { HttpBearer } from '../../src/http/http-bearer.js';
import { parseAuthorization } from '../../src/http/authorization.js';
import { encodeBasicCredentials } from '../../src/http/parse-basic-credentials.js';

// ---- A strict reading of the RFC 9110 §11.3 challenge grammar, to check what we emit. ----
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
// qdtext = HTAB / SP / %x21 / %x23-5B / %x5D-7E / obs-text; quoted-pair = "\" ( HTAB / SP / VCHAR / obs-text )
const QUOTED_STRING =
  '"(?:[\\t \\x21\\x23-\\x5b\\x5d-\\x7e\\x80-\\xff]|\\\\[\\t \\x21-\\x7e\\x80-\\xff])*"';
const AUTH_PARAM = `${TOKEN}[ \\t]*=[ \\t]*(?:${TOKEN}|${QUOTED_STRING})`;
const TOKEN68 = '[A-Za-z0-9\\-._~+/]+=*';
const CHALLENGE = new RegExp(
  `^(${TOKEN})(?: +(?:${TOKEN68}|${AUTH_PARAM}(?:[ \\t]*,[ \\t]*${AUTH_PARAM})*))?$`,
);

/** Parses one challenge into its scheme and auth-params (quoted values unescaped). */
function parseChallenge(line: string): { scheme: string; params: Map<string, string> } {
  const match = CHALLENGE.exec(line);
  assert.ok(match, `not an RFC 9110 challenge: ${line}`);
  const params = new Map<string, string>();
  const param = new RegExp(`(${TOKEN})[ \\t]*=[ \\t]*(${TOKEN}|${QUOTED_STRING})`, 'g');
  for (const [, name, value] of line.slice(match[1]!.length).matchAll(param)) {
    const unquoted = value!.startsWith('"') ? value!.slice(1, -1).replace(/\\(.)/g, '$1') : value!;
    assert.ok(!params.has(name!.toLowerCase()), `auth-param ${name!} repeated`);
    params.set(name!.toLowerCase(), unquoted);
  }
  return { scheme: match[1]!, params };
}

const request = (
  headers: Record<string, string> = {},
  extra: [string, string][] = [],
): RequestView => ({
  method: 'GET',
  url: '/x',
  headers,
  raw: { rawHeaders: [...Object.entries(headers), ...extra].flat() },
});

async function failure(spec: AuthSpec, req: RequestView, realm = 'api'): Promise<AuthFailure> {
  const result = await authenticate(resolveAuth(spec, 'GET /x')!, req, { realm });
  assert.equal(result.ok, false);
  return result;
}

const reject = (): undefined => undefined;

describe('RFC 9110 §11.1 auth-scheme: a token, compared case-insensitively', () => {
  it('accepts every tchar in a scheme', () => {
    assert.deepEqual(parseAuthorization("A!#$%&'*+-.^_`|~9 x"), {
      scheme: "A!#$%&'*+-.^_`|~9",
      credentials: 'x',
    });
  });

  for (const separator of [
    '(',
    ')',
    ',',
    '/',
    ':',
    ';',
    '<',
    '=',
    '>',
    '?',
    '@',
    '[',
    '\\',
    ']',
    '{',
    '}',
    '"',
  ]) {
    it(`a scheme containing ${JSON.stringify(separator)} is not a scheme`, () => {
      assert.equal(parseAuthorization(`Bea${separator}rer abc`), undefined);
    });
  }

  it('a scheme that is not a token is no Bearer credential (absent, hook not called)', async () => {
    let calls = 0;
    const bearer = new HttpBearer({
      authenticate: () => {
        calls++;
        return 'x';
      },
    });
    for (const value of ['"Bearer" abc', 'Bearer, abc', 'Bearer= abc', '\u212Aearer abc']) {
      assert.equal((await bearer.verify(request({ authorization: value }))).state, 'absent');
    }
    assert.equal(calls, 0);
  });
});

describe('RFC 9110 §11.4 credentials = auth-scheme [ 1*SP ( token68 / #auth-param ) ]', () => {
  it('one space separates scheme and credentials', () => {
    assert.deepEqual(parseAuthorization('Bearer abc'), { scheme: 'Bearer', credentials: 'abc' });
  });

  it('several spaces separate them too', async () => {
    assert.deepEqual(parseAuthorization('Bearer     abc'), {
      scheme: 'Bearer',
      credentials: 'abc',
    });
    const basic = new HttpBasic({ authenticate: (_request, user) => user });
    const header = `Basic    ${encodeBasicCredentials('ann', 'pw')}`;
    assert.deepEqual(await basic.verify(request({ authorization: header })), {
      state: 'accepted',
      value: 'ann',
    });
  });

  for (const [label, separator] of [
    ['a tab', '\t'],
    ['a space then a tab', ' \t'],
    ['a tab then a space', '\t '],
    ['a no-break space', '\u00a0'],
    ['a vertical tab', '\u000b'],
    ['a form feed', '\f'],
  ] as const) {
    it(`${label} does not separate`, async () => {
      let calls = 0;
      const bearer = new HttpBearer({
        authenticate: () => {
          calls++;
          return 'x';
        },
      });
      const outcome = await bearer.verify(request({ authorization: `Bearer${separator}abc` }));
      assert.notEqual(outcome.state, 'accepted');
      assert.equal(calls, 0);
    });
  }

  it('nothing may precede the scheme', () => {
    assert.equal(parseAuthorization(' Bearer abc'), undefined);
    assert.equal(parseAuthorization('\tBearer abc'), undefined);
  });
});

const printableAscii = fc
  .integer({ min: 0x20, max: 0x7e })
  .map((code) => String.fromCharCode(code));

describe('RFC 9110 §11.3 / §5.6.4: challenges and quoted-string escaping', () => {
  const kinds: readonly [string, (realm?: string) => Authenticator][] = [
    [
      'Bearer',
      (realm) =>
        new HttpBearer({ authenticate: reject, ...(realm === undefined ? {} : { realm }) }),
    ],
    [
      'Basic',
      (realm) => new HttpBasic({ authenticate: reject, ...(realm === undefined ? {} : { realm }) }),
    ],
    [
      'APIKey',
      (realm) =>
        new APIKeyHeader({
          paramName: 'X-API-Key',
          authenticate: reject,
          ...(realm === undefined ? {} : { realm }),
        }),
    ],
  ];

  const realms = [
    'api',
    '',
    'my "quoted" realm',
    'back\\slash',
    '\\"',
    'a, realm="evil"',
    "it's=ok; x",
  ];
  for (const [kind, make] of kinds) {
    for (const realm of realms) {
      for (const rejected of [false, true]) {
        it(`${kind} (${rejected ? 'rejected' : 'absent'}) with realm ${JSON.stringify(realm)} is well-formed and round-trips`, () => {
          const line = make().challenge(realm, rejected);
          assert.ok(line !== undefined);
          const parsed = parseChallenge(line);
          assert.equal(parsed.scheme, kind);
          assert.equal(parsed.params.get('realm'), realm);
        });
      }
    }
  }

  it('any printable realm round-trips through the quoted-string (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: printableAscii }), (realm) => {
        for (const [kind, make] of kinds) {
          const parsed = parseChallenge(make().challenge(realm, true)!);
          assert.equal(parsed.scheme, kind);
          assert.equal(parsed.params.get('realm'), realm);
        }
      }),
    );
  });

  it('escapes the API-key parameter name too', () => {
    const apiKey = new APIKeyQuery({ paramName: 'k"\\', authenticate: reject });
    const parsed = parseChallenge(apiKey.challenge('api'));
    assert.equal(parsed.params.get('name'), 'k"\\');
    assert.equal(parsed.params.get('in'), 'query');
  });

  it('Basic carries charset="UTF-8"; Bearer carries error="invalid_token" when rejected', () => {
    const basic = parseChallenge(new HttpBasic({ authenticate: reject }).challenge('api'));
    assert.equal(basic.params.get('charset'), 'UTF-8');
    const bearer = parseChallenge(new HttpBearer({ authenticate: reject }).challenge('api', true));
    assert.equal(bearer.params.get('error'), 'invalid_token');
  });
});

describe('RFC 9110 §11.6.1: one WWW-Authenticate line per challenge', () => {
  it('gives one line per tried authenticator that has a challenge, in list order', async () => {
    const bearer = new HttpBearer({ authenticate: reject });
    const basic = new HttpBasic({ authenticate: reject });
    const query = new APIKeyQuery({ paramName: 'api_key', authenticate: reject });
    const cookie = new APIKeyCookie({ paramName: 'k', authenticate: reject });
    const fn = (): undefined => undefined;
    const result = await failure([basic, fn, bearer, query, cookie], request());
    assert.deepEqual(
      result.challenges.map((line) => parseChallenge(line).scheme),
      ['Basic', 'Bearer', 'APIKey', 'APIKey'],
    );
    assert.equal(new Set(result.challenges).size, result.challenges.length);
  });

  it('never repeats a line for an authenticator listed twice', async () => {
    const bearer = new HttpBearer({ authenticate: reject });
    const header = new APIKeyHeader({ paramName: 'X-API-Key', authenticate: reject });
    const result = await failure([bearer, allOf(header, bearer), bearer, header], request());
    assert.deepEqual(result.challenges, [
      'Bearer realm="api"',
      'APIKey realm="api", in="header", name="X-API-Key"',
    ]);
  });

  it('gives the rejected and the unrejected Bearer variants as distinct challenges', async () => {
    // The same scheme with different parameters stays two lines, each its own challenge.
    const first = new HttpBearer({ authenticate: reject });
    const other = new HttpBearer({ authenticate: reject, realm: 'other' });
    const result = await failure([first, other], request({ authorization: 'Bearer t' }));
    assert.deepEqual(result.challenges, [
      'Bearer realm="api", error="invalid_token"',
      'Bearer realm="other", error="invalid_token"',
    ]);
  });
});

describe('RFC 9110 §5.3: a repeated Authorization field is ambiguous (400)', () => {
  const bearer = (): { auth: HttpBearer; calls: () => number } => {
    let count = 0;
    const auth = new HttpBearer({
      authenticate: () => {
        count++;
        return 'x';
      },
    });
    return { auth, calls: () => count };
  };

  for (const second of ['Bearer good', 'bearer other', 'Basic dTpw', '']) {
    it(`a second line ${JSON.stringify(second)} → BadRequestError, hook not called`, async () => {
      const { auth, calls } = bearer();
      const result = await failure(
        auth,
        request({ authorization: 'Bearer good' }, [['authorization', second]]),
      );
      assert.ok(result.error instanceof VouchError);
      assert.equal(result.error.code, 'VOUCH_ERR_BAD_REQUEST');
      assert.equal(calls(), 0);
    });
  }

  it('is ambiguous for Basic too', async () => {
    const basic = new HttpBasic({ authenticate: () => 'x' });
    const line = `Basic ${encodeBasicCredentials('a', 'b')}`;
    const result = await failure(
      basic,
      request({ authorization: line }, [['AUTHORIZATION', line]]),
    );
    assert.equal((result.error as VouchError).code, 'VOUCH_ERR_BAD_REQUEST');
  });

  it('is seen in the raw lines of a real Node request, which keeps only the first', async () => {
    const seen: { first: string | undefined; outcome: Outcome<unknown> }[] = [];
    const { auth } = bearer();
    const server = createServer((req: IncomingMessage, res) => {
      const view: RequestView = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        raw: req,
      };
      void Promise.resolve(auth.verify(view)).then((outcome) => {
        seen.push({ first: req.headers.authorization, outcome });
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      await new Promise<void>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.write(
            'GET /x HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer good\r\n' +
              'Authorization: Bearer evil\r\nConnection: close\r\n\r\n',
          );
        });
        socket.on('error', reject);
        socket.on('close', () => {
          resolve();
        });
        socket.resume();
      });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    assert.equal(seen.length, 1);
    assert.equal(seen[0]!.first, 'Bearer good', 'Node dropped the second line from headers');
    assert.equal(seen[0]!.outcome.state, 'ambiguous');
  });
});
