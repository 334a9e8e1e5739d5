import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RequestView } from '../core/request.js';
import fc from 'fast-check';
import { authorizationCredentials } from './authorization-credentials.js';
import { isScheme, parseAuthorization } from './parse-authorization.js';

function request(...values: string[]): RequestView {
  return {
    method: 'GET',
    url: '/',
    headers: values.length === 0 ? {} : { authorization: values[0] },
    raw: { rawHeaders: values.flatMap((value) => ['Authorization', value]) },
  };
}

describe('authorizationCredentials', () => {
  const rows: [string, RequestView, string | undefined, string][] = [
    ['no header', request(), undefined, 'absent'],
    ['another scheme', request('Basic abc'), undefined, 'absent'],
    ['scheme word alone', request('Bearer'), undefined, 'absent'],
    ['a tab instead of a space', request('Bearer\tabc'), undefined, 'rejected'],
    ['a no-break space instead', request('Bearer\u00a0abc'), undefined, 'rejected'],
    ['a longer scheme word', request('Bearerx abc'), undefined, 'absent'],
    ['two header lines', request('Bearer a', 'Bearer b'), undefined, 'ambiguous'],
    ['longer than allowed', request(`Bearer ${'a'.repeat(11)}`), undefined, 'rejected'],
    ['present, any case, several spaces', request('bEaReR   abc'), 'abc', 'present'],
  ];
  for (const [name, input, credential, state] of rows) {
    it(`${name} → ${state}`, () => {
      const found = authorizationCredentials(input, 'bearer', 10);
      assert.equal(found.state, state);
      if (found.state === 'present') assert.equal(found.credential, credential);
    });
  }
});

describe('authorizationCredentials, against parseAuthorization and isScheme', () => {
  const unit = fc.constantFrom(
    ...'BbEeAaRrSsIiCc xX\t=:-\u212a\u00e9'.split(''),
    'Bearer',
    'Basic',
  );
  it('finds the same credentials for any header value', () => {
    fc.assert(
      fc.property(fc.string({ unit }), fc.constantFrom('bearer', 'basic'), (value, scheme) => {
        const parts = parseAuthorization(value);
        const expected =
          parts === undefined || !isScheme(parts.scheme, scheme) || parts.credentials === ''
            ? undefined
            : parts.credentials;
        const found = authorizationCredentials(request(value), scheme, 4096);
        assert.equal(found.state === 'present' ? found.credential : undefined, expected);
      }),
      { numRuns: 2000 },
    );
  });
});
