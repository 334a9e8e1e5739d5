import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { APIKeyCookie } from '../api-key/api-key-cookie.js';
import { APIKeyHeader } from '../api-key/api-key-header.js';
import { HttpBasic } from '../http/http-basic.js';
import { HttpBearer } from '../http/http-bearer.js';
import { ConfigurationError } from './errors.js';
import { authFunction } from './function-authenticator.js';
import { SchemeRegistry } from './scheme-registry.js';

const hook = (): undefined => undefined;

describe('SchemeRegistry', () => {
  it('collects every documented scheme by name, in the order first added', () => {
    const registry = new SchemeRegistry();
    const bearer = new HttpBearer({ authenticate: hook });
    const basic = new HttpBasic({ authenticate: hook });
    const header = new APIKeyHeader({ paramName: 'X-API-Key', authenticate: hook });
    registry.add([[bearer], [header, basic]], 'GET /a');
    registry.add([[basic], [bearer]], 'GET /b');
    assert.deepEqual(Object.keys(registry.toComponents()), [
      'bearerAuth',
      'apiKeyHeader_X-API-Key',
      'basicAuth',
    ]);
    assert.deepEqual(registry.toComponents().bearerAuth, { type: 'http', scheme: 'bearer' });
  });

  it('is empty to begin with', () => {
    assert.deepEqual(new SchemeRegistry().toComponents(), {});
  });

  it('skips undocumented authenticators', () => {
    const registry = new SchemeRegistry();
    registry.add([[authFunction(hook)]], 'GET /a');
    assert.deepEqual(registry.toComponents(), {});
  });

  it('lets two authenticators documenting the same scheme share a name', () => {
    const registry = new SchemeRegistry();
    registry.add([[new HttpBearer({ authenticate: hook })]], 'GET /a');
    registry.add([[new HttpBearer({ authenticate: () => 'other' })]], 'GET /b');
    assert.deepEqual(registry.toComponents(), { bearerAuth: { type: 'http', scheme: 'bearer' } });
  });

  it('refuses two different schemes under one name, naming both routes', () => {
    const registry = new SchemeRegistry();
    registry.add(
      [[new APIKeyHeader({ name: 'key', paramName: 'X-A', authenticate: hook })]],
      'GET /a',
    );
    assert.throws(
      () => {
        registry.add(
          [[new APIKeyCookie({ name: 'key', paramName: 'X-A', authenticate: hook })]],
          'GET /b',
        );
      },
      (error: unknown) => {
        assert.ok(error instanceof ConfigurationError);
        assert.equal(error.code, 'VOUCH_ERR_CONFIGURATION');
        assert.ok(error.message.includes('GET /b'));
        assert.ok(error.message.includes('GET /a'));
        return true;
      },
    );
  });

  it('refuses two different descriptions under one name', () => {
    const registry = new SchemeRegistry();
    registry.add([[new HttpBearer({ authenticate: hook, description: 'one' })]], 'GET /a');
    assert.throws(() => {
      registry.add([[new HttpBearer({ authenticate: hook, description: 'two' })]], 'GET /b');
    }, ConfigurationError);
  });

  it('keeps the order names were first added in, whatever their spelling', () => {
    const registry = new SchemeRegistry();
    const named = (name: string) => new HttpBearer({ authenticate: hook, name });
    registry.add([[named('b')], [named('a')], [named('B')], [named('a')]], 'GET /a');
    assert.deepEqual(Object.keys(registry.toComponents()), ['b', 'a', 'B']);
  });
});
