import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigurationError } from '../core/errors.js';
import { protectedResource } from '../oauth/protected-resource.js';
import { publicUrlSource } from './public-url-source.js';

describe('publicUrlSource', () => {
  const api = protectedResource({
    resource: 'https://api.test:8443/mcp',
    authorizationServers: ['https://login.test'],
  });
  const source = publicUrlSource(api);
  const at = (url: string) => source.publicUrl({ method: 'GET', url, headers: {} });

  it("is the resource's origin and the request's path, without query or fragment", () => {
    assert.equal(at('/mcp'), 'https://api.test:8443/mcp');
    assert.equal(at('/other/path?a=1'), 'https://api.test:8443/other/path');
    assert.equal(at('/x#f'), 'https://api.test:8443/x');
  });

  it('tells nothing for a target that is not a path (absolute-form, *)', () => {
    assert.equal(at('http://evil.test/mcp'), undefined);
    assert.equal(at('*'), undefined);
  });

  it('needs a resource', () => {
    assert.throws(() => publicUrlSource(undefined), ConfigurationError);
  });
});
