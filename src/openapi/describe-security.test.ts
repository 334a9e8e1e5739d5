import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { APIKeyCookie, HttpBearer, resolveAuth } from '../index.js';
import { describeSecurity } from './describe-security.js';

const bearer = new HttpBearer({ authenticate: (_request, token) => token });
const cookieKey = new APIKeyCookie({ paramName: 'X-API-KEY', authenticate: (_r, key) => key });

describe('describeSecurity', () => {
  it('describes a protected route without HTTP', () => {
    const description = describeSecurity(
      { requirements: resolveAuth([bearer, cookieKey], 'test'), csrf: true },
      'POST',
      { realm: 'pets' },
    );
    assert.deepEqual(description.security, [{ bearerAuth: [] }, { 'apiKeyCookie_X-API-KEY': [] }]);
    assert.deepEqual(Object.keys(description.responses), ['400', '401', '403']);
    assert.match(
      description.responses['401']!.headers!['WWW-Authenticate']!.description,
      /Bearer realm="pets"/,
    );
  });

  it('describes a public route as security: [] without error responses', () => {
    assert.deepEqual(describeSecurity({ requirements: null, csrf: true }, 'POST'), {
      security: [],
      responses: {},
    });
  });
});
