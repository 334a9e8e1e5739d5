// Property-based checks (fast-check): the parsers and every authenticator never throw on
// arbitrary input, and Basic credentials round-trip.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { APIKeyCookie } from '../../src/api-key/api-key-cookie.js';
import { APIKeyHeader } from '../../src/api-key/api-key-header.js';
import { APIKeyQuery } from '../../src/api-key/api-key-query.js';
import type { Authenticator } from '../../src/core/authenticator.js';
import { authFunction } from '../../src/core/function-authenticator.js';
import type { RequestView } from '../../src/core/request.js';
import { HttpBasic } from '../../src/http/http-basic.js';
import {
  authorizationCredentials,
  isB64token,
  isScheme,
  parseAuthorization,
} from '../../src/http/authorization.js';
import { HttpBearer } from '../../src/http/http-bearer.js';
import { singleHeader } from '../../src/internal/read-once.js';
import {
  encodeBasicCredentials,
  parseBasicCredentials,
} from '../../src/http/parse-basic-credentials.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import { SessionAuth } from '../../src/session/session-auth.js';

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Strings of every flavour: whole graphemes, any code point, and header-like ASCII. */
const headerish = fc.string({
  unit: fc.constantFrom(
    ...'Bearer Basic APIKey abc=+/-._~:;,"\\ \t\r\n%\u0000\u00e9\u212a'.split(''),
    'Bearer ',
    'Basic ',
    'dXNlcjpwYXNz',
    '==',
  ),
});
const anyString = fc.oneof(
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'binary-ascii' }),
  headerish,
);

describe('parseAuthorization', () => {
  it('never throws, and what it returns rebuilds the input', () => {
    fc.assert(
      fc.property(anyString, (value) => {
        const parts = parseAuthorization(value);
        if (parts === undefined) return;
        assert.match(parts.scheme, /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/);
        assert.ok(value.startsWith(parts.scheme));
        assert.ok(value.endsWith(parts.credentials));
        assert.ok(!parts.credentials.startsWith(' '));
        const separator = value.slice(parts.scheme.length, value.length - parts.credentials.length);
        assert.match(separator, parts.credentials === '' ? /^ *$/ : /^ +$/);
      }),
    );
  });

  it('splits exactly as the RFC 9110 grammar written as a regular expression does', () => {
    const grammar = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)(?: +(.*))?$/s;
    fc.assert(
      fc.property(anyString, (value) => {
        const match = grammar.exec(value);
        const reference =
          match === null ? undefined : { scheme: match[1], credentials: match[2] ?? '' };
        assert.deepEqual(parseAuthorization(value), reference);
      }),
    );
  });
});

describe('isScheme', () => {
  it('is ASCII case-insensitive equality with printable ASCII only', () => {
    const schemes = fc.constantFrom('bearer', 'basic', 'apikey', 'digest', 'aws4-hmac-sha256', 'k');
    fc.assert(
      fc.property(
        fc.oneof(
          anyString,
          schemes.map((s) => s.toUpperCase()),
        ),
        schemes,
        (received, expected) => {
          const reference = /^[\x20-\x7e]*$/.test(received) && received.toLowerCase() === expected;
          assert.equal(isScheme(received, expected), reference);
        },
      ),
    );
  });
});

describe('parseBasicCredentials', () => {
  it('never throws on arbitrary strings', () => {
    fc.assert(
      fc.property(anyString, (value) => {
        parseBasicCredentials(value);
      }),
    );
  });

  it('never throws on base64 of arbitrary bytes, and what it returns obeys the rules', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const token = Buffer.from(bytes).toString('base64');
        const parsed = parseBasicCredentials(token);
        if (parsed === undefined) return;
        assert.notEqual(parsed.username, '');
        assert.ok(!parsed.username.includes(':'));
        assert.ok(!CONTROL.test(parsed.username) && !CONTROL.test(parsed.password));
        // Strict UTF-8: the bytes are exactly the encoding of what came out.
        assert.deepEqual(
          Buffer.from(`${parsed.username}:${parsed.password}`, 'utf8'),
          Buffer.from(bytes),
        );
      }),
    );
  });

  it('round-trips encodeBasicCredentials for any username without ":" and controls and any password without controls', () => {
    const noControl = (s: string): boolean => !CONTROL.test(s);
    const username = fc
      .oneof(
        fc.string({ unit: 'grapheme', minLength: 1 }),
        fc.string({ unit: 'binary', minLength: 1 }),
      )
      .filter((s) => !s.includes(':') && noControl(s));
    const password = fc
      .oneof(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }))
      .filter(noControl);
    fc.assert(
      fc.property(username, password, (user, pass) => {
        assert.deepEqual(parseBasicCredentials(encodeBasicCredentials(user, pass)), {
          username: user,
          password: pass,
        });
      }),
    );
  });
});

describe('isB64token', () => {
  it('never throws, and accepts only the RFC 6750 alphabet with trailing "="', () => {
    fc.assert(
      fc.property(anyString, (value) => {
        const body = value.replace(/=+$/, '');
        const reference = body !== '' && /^[A-Za-z0-9\-._~+/]+$/.test(body);
        assert.equal(isB64token(value), reference);
      }),
    );
  });

  it('accepts every string built from the grammar', () => {
    const alphabet = fc.constantFrom(
      ...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/'.split(''),
    );
    fc.assert(
      fc.property(
        fc.string({ unit: alphabet, minLength: 1 }),
        fc.nat({ max: 4 }),
        (body, padding) => {
          assert.equal(isB64token(body + '='.repeat(padding)), true);
        },
      ),
    );
  });
});

describe('HttpBearer', () => {
  it('reads the token exactly as the general Authorization path and the b64token grammar decide', () => {
    // HttpBearer checks the token's grammar with one expression over the whole header; that must
    // decide as isB64token over the token does, on every header, at and around the length limit.
    const maxLength = 12;
    const bearer = new HttpBearer({ maxLength, authenticate: (_request, token) => token });
    const word = fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }).map((upper) =>
      'bearer'
        .split('')
        .map((c, i) => (upper[i] === true ? c.toUpperCase() : c))
        .join(''),
    );
    const tokenish = fc.string({
      unit: fc.constantFrom(...'aZ09-._~+/= \t,\u00e9\u212a'.split('')),
      maxLength: 16,
    });
    const validToken = fc
      .tuple(
        fc.string({
          unit: fc.constantFrom(...'aZ09-._~+/'.split('')),
          minLength: 1,
          maxLength: 16,
        }),
        fc.string({ unit: fc.constant('='), maxLength: 2 }),
      )
      .map((parts) => parts.join(''));
    const spaces = fc.string({ unit: fc.constant(' '), maxLength: 3 });
    const header = fc.oneof(
      anyString,
      fc.tuple(word, spaces, tokenish).map((parts) => parts.join('')),
      fc.tuple(word, spaces, validToken).map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(header, (value) => {
        const view: RequestView = {
          method: 'GET',
          url: '/',
          headers: { authorization: value },
          raw: { rawHeaders: ['Authorization', value] },
        };
        const found = authorizationCredentials(view, 'bearer', maxLength);
        const expected =
          found.state !== 'present'
            ? found
            : isB64token(found.credential)
              ? { state: 'accepted', value: found.credential }
              : { state: 'rejected' };
        assert.deepEqual(bearer.verify(view), expected);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('every authenticator’s verify', () => {
  const accept = (): string => 'ok';
  const authenticators: readonly Authenticator[] = [
    new HttpBearer({ authenticate: accept }),
    new HttpBasic({ authenticate: accept }),
    new APIKeyQuery({ authenticate: accept }),
    new APIKeyQuery({ paramName: 'api_key', authenticate: accept }),
    new APIKeyHeader({ paramName: 'X-API-Key', authenticate: accept }),
    new APIKeyHeader({ paramName: 'authorization', authenticate: accept }),
    new APIKeyCookie({ paramName: 'X-API-KEY', authenticate: accept }),
    new SessionAuth({ store: new MemorySessionStore<string>() }),
    authFunction(accept),
  ];

  const headerName = fc.oneof(
    fc.constantFrom('authorization', 'Authorization', 'cookie', 'x-api-key', 'X-API-Key', 'key'),
    fc.string({ unit: 'binary-ascii', maxLength: 12 }),
  );
  const headerValue = fc.oneof(
    anyString,
    fc.constantFrom('sessionid=abc', 'X-API-KEY=k; X-API-KEY=k', 'key=%zz', 'Basic =', 'Bearer ='),
  );
  const arbitraryRequest: fc.Arbitrary<RequestView> = fc
    .record({
      method: fc.constantFrom('GET', 'POST', 'DELETE', 'get', ''),
      url: fc.oneof(
        anyString,
        fc.tuple(anyString, anyString).map(([a, b]) => `/x?${a}&key=${b}&api_key=${a}`),
      ),
      lines: fc.array(fc.tuple(headerName, headerValue), { maxLength: 6 }),
      arrays: fc.array(fc.tuple(headerName, fc.array(headerValue, { maxLength: 3 })), {
        maxLength: 2,
      }),
      withRaw: fc.boolean(),
    })
    .map(({ method, url, lines, arrays, withRaw }) => {
      const headers: Record<string, string | string[]> = {};
      for (const [name, value] of lines) headers[name.toLowerCase()] ??= value;
      for (const [name, values] of arrays) headers[name.toLowerCase()] = values;
      return withRaw
        ? { method, url, headers, raw: { rawHeaders: lines.flat() } }
        : { method, url, headers };
    });

  it('resolves to an outcome and never throws on arbitrary requests', async () => {
    await fc.assert(
      fc.asyncProperty(arbitraryRequest, async (req) => {
        for (const authenticator of authenticators) {
          const outcome = await authenticator.verify(req);
          assert.ok(['absent', 'rejected', 'ambiguous', 'accepted'].includes(outcome.state));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('never throws for arbitrary Authorization values', async () => {
    await fc.assert(
      fc.asyncProperty(anyString, async (value) => {
        const req: RequestView = {
          method: 'GET',
          url: '/',
          headers: { authorization: value },
          raw: { rawHeaders: ['Authorization', value] },
        };
        for (const authenticator of authenticators.slice(0, 2)) {
          const outcome = await authenticator.verify(req);
          assert.notEqual(outcome.state, 'ambiguous');
        }
      }),
    );
  });
});

describe('singleHeader over raw lines', () => {
  it('finds a header under any ASCII spelling of its name, the usual ones and others alike', () => {
    // The usual spellings are matched natively, the others by folding: both must decide as
    // comparing lower-cased names does.
    const names = ['authorization', 'x-api-key', 'origin'] as const;
    const spell = (name: string) =>
      fc
        .array(fc.boolean(), { minLength: name.length, maxLength: name.length })
        .map((upper) =>
          upper.map((up, i) => (up ? name.charAt(i).toUpperCase() : name.charAt(i))).join(''),
        );
    const line = fc.oneof(
      fc.constantFrom(...names).chain((name) => fc.tuple(spell(name), anyString)),
      fc.tuple(fc.string({ unit: 'binary-ascii', maxLength: 14 }), anyString),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 6 }), fc.constantFrom(...names), (lines, name) => {
        const request: RequestView = {
          method: 'GET',
          url: '/',
          headers: {},
          raw: { rawHeaders: lines.flat() },
        };
        const values = lines.filter(([n]) => n.toLowerCase() === name).map(([, v]) => v);
        const expected =
          values.length > 1
            ? { state: 'ambiguous' }
            : values[0] === undefined || values[0] === ''
              ? { state: 'absent' }
              : { state: 'present', credential: values[0] };
        const spelling = name === 'x-api-key' ? 'X-API-Key' : name;
        assert.deepEqual(singleHeader(request, name, spelling), expected);
      }),
      { numRuns: 2000 },
    );
  });
});
