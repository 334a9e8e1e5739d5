import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigurationError } from '../core/errors.js';
import { protectedResource, RESOURCE_METADATA_PATH } from './protected-resource.js';

const AS = ['https://login.example.com'];

describe('protectedResource', () => {
  it('puts the metadata at the well-known path before the resource path (RFC 9728 §3.1)', () => {
    const api = protectedResource({
      resource: 'https://api.example.com/v1/mcp',
      authorizationServers: AS,
    });
    assert.equal(api.metadataUrl, `https://api.example.com${RESOURCE_METADATA_PATH}/v1/mcp`);
    assert.deepEqual(api.metadataPaths, [
      `${RESOURCE_METADATA_PATH}/v1/mcp`,
      RESOURCE_METADATA_PATH,
    ]);
  });

  it('serves a resource without a path at the well-known path alone', () => {
    for (const resource of ['https://api.example.com', 'https://api.example.com/']) {
      const api = protectedResource({ resource, authorizationServers: AS });
      assert.equal(api.metadataUrl, `https://api.example.com${RESOURCE_METADATA_PATH}`);
      assert.deepEqual(api.metadataPaths, [RESOURCE_METADATA_PATH]);
    }
  });

  it('drops a trailing slash of the path from the metadata URL, keeps the port', () => {
    const api = protectedResource({
      resource: 'http://127.0.0.1:8080/mcp/',
      authorizationServers: AS,
    });
    assert.equal(api.metadataUrl, `http://127.0.0.1:8080${RESOURCE_METADATA_PATH}/mcp`);
  });

  it('describes the resource with the scopes given, sorted, each once', () => {
    const api = protectedResource({
      resource: 'https://api.example.com/mcp',
      authorizationServers: AS,
      resourceName: 'Météo MCP',
      resourceDocumentation: 'https://docs.example.com/mcp',
    });
    assert.deepEqual(api.metadata(['mcp:tools', 'mcp:admin', 'mcp:tools']), {
      resource: 'https://api.example.com/mcp',
      authorization_servers: AS,
      scopes_supported: ['mcp:admin', 'mcp:tools'],
      bearer_methods_supported: ['header'],
      resource_name: 'Météo MCP',
      resource_documentation: 'https://docs.example.com/mcp',
    });
    assert.equal('scopes_supported' in api.metadata([]), false);
    const documented = protectedResource({
      resource: 'https://api.example.com/mcp',
      authorizationServers: AS,
      resourcePolicyUri: 'https://example.com/policy',
      resourceTosUri: 'https://example.com/tos',
    });
    assert.deepEqual(documented.metadata([]), {
      resource: 'https://api.example.com/mcp',
      authorization_servers: AS,
      bearer_methods_supported: ['header'],
      resource_policy_uri: 'https://example.com/policy',
      resource_tos_uri: 'https://example.com/tos',
    });
  });

  it('refuses what cannot identify a resource, naming the option', () => {
    const refused: [unknown, RegExp][] = [
      ['api.example.com/mcp', /absolute https URL/],
      ['http://api.example.com/mcp', /http only on a loopback host/],
      ['ftp://api.example.com/', /absolute https URL/],
      ['https://api.example.com/mcp#x', /fragment/],
      ['https://api.example.com/mcp#', /fragment/],
      ['https://api.example.com/mcp?x=1', /query/],
      [42, /absolute https URL/],
    ];
    for (const [resource, message] of refused) {
      assert.throws(
        () => protectedResource({ resource: resource as string, authorizationServers: AS }),
        (error) => error instanceof ConfigurationError && message.test(error.message),
        String(resource),
      );
    }
  });

  it('needs at least one authorization server, each an absolute URL', () => {
    for (const authorizationServers of [[], 'https://login.example.com', ['login.example.com']]) {
      assert.throws(
        () =>
          protectedResource({
            resource: 'https://api.example.com',
            authorizationServers: authorizationServers as string[],
          }),
        ConfigurationError,
      );
    }
    assert.throws(
      () =>
        protectedResource({
          resource: 'https://api.example.com',
          authorizationServers: AS,
          resourceTosUri: 'tos.html',
        }),
      /resourceTosUri/,
    );
    for (const resourceName of ['', 42]) {
      assert.throws(
        () =>
          protectedResource({
            resource: 'https://api.example.com',
            authorizationServers: AS,
            resourceName: resourceName as string,
          }),
        /resourceName must be a non-empty string/,
      );
    }
  });
});
