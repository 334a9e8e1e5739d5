// loadConfig refuses each bad variable by name, and reads the defaults and sound values.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from './config.js';
import { EnvironmentError } from '../errors.js';

describe('loadConfig', () => {
  const bad: readonly [NodeJS.ProcessEnv, string][] = [
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ PORT: '-1' }, 'PORT'],
    [{ PORT: '80.5' }, 'PORT'],
    [{ HOST: '0.0.0.0.0' }, 'HOST'],
    [{ HOST: '300.1.2.3' }, 'HOST'],
    [{ HOST: 'bad host' }, 'HOST'],
    [{ HOST: 'http://example.com' }, 'HOST'],
    [{ IP_ALLOWLIST: 'nope' }, 'IP_ALLOWLIST'],
    [{ IP_ALLOWLIST: '10.0.0.0/33' }, 'IP_ALLOWLIST'],
    [{ IP_ALLOWLIST: '127.0.0.1,nope' }, 'IP_ALLOWLIST'],
    [{ TRUST_PROXY: 'nope' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.1/x' }, 'TRUST_PROXY'],
    [{ PUBLIC_ORIGIN: 'ftp://x' }, 'PUBLIC_ORIGIN'],
    [{ PUBLIC_ORIGIN: 'http://x/path' }, 'PUBLIC_ORIGIN'],
    [{ PUBLIC_ORIGIN: 'http://x?query' }, 'PUBLIC_ORIGIN'],
    [{ PUBLIC_ORIGIN: 'http://user@x' }, 'PUBLIC_ORIGIN'],
    [{ PUBLIC_ORIGIN: 'not a url' }, 'PUBLIC_ORIGIN'],
    [{ NODE_ENV: 'production' }, 'SECRET_KEY'],
    [{ NODE_ENV: 'production', SECRET_KEY: '' }, 'SECRET_KEY'],
    [{ SECRET_KEY: 'x'.repeat(31) }, 'SECRET_KEY'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ TOKEN_TTL_SECONDS: '10' }, 'TOKEN_TTL_SECONDS'],
    [{ SESSION_IDLE_SECONDS: 'soon' }, 'SESSION_IDLE_SECONDS'],
    [{ SESSION_ABSOLUTE_SECONDS: '0' }, 'SESSION_ABSOLUTE_SECONDS'],
    [{ REDIS_URL: 'http://cache:6379' }, 'REDIS_URL'],
    [{ REDIS_URL: 'redis://' }, 'REDIS_URL'],
    [{ REDIS_URL: 'redis://cache:6379/zero' }, 'REDIS_URL'],
    [{ REDIS_URL: 'redis://cache:6379/0/1' }, 'REDIS_URL'],
    [{ REDIS_URL: 'cache:6379' }, 'REDIS_URL'],
    [{ REDIS_URL: 'redis://cache:6379/0/vouch' }, 'REDIS_URL'],
    [{ REDIS_KEY_PREFIX: 'vouch *' }, 'REDIS_KEY_PREFIX'],
    [{ REDIS_KEY_PREFIX: 'vouch{1}:' }, 'REDIS_KEY_PREFIX'],
    [{ REDIS_KEY_PREFIX: 'v'.repeat(65) }, 'REDIS_KEY_PREFIX'],
    [{ REDIS_KEY_PREFIX: 'vouché:' }, 'REDIS_KEY_PREFIX'],
  ];
  for (const [env, variable] of bad) {
    it(`refuses ${JSON.stringify(env)} naming ${variable}`, () => {
      assert.throws(
        () => loadConfig(env),
        (error: unknown) =>
          error instanceof EnvironmentError &&
          error.code === 'VOUCH_SERVICE_ENVIRONMENT' &&
          error.variable === variable &&
          error.message.includes(variable),
      );
    });
  }

  it('accepts the defaults and sound values', () => {
    const defaults = loadConfig({});
    assert.equal(defaults.port, 8000);
    assert.equal(defaults.host, '127.0.0.1');
    assert.equal(defaults.publicOrigin, 'http://127.0.0.1:8000');
    assert.equal(defaults.trustProxy, false);
    assert.equal(defaults.production, false);
    assert.equal(defaults.secretKey, undefined);
    assert.equal(defaults.redisUrl, undefined);
    for (const host of [
      '0.0.0.0',
      '::',
      '::1',
      'localhost',
      'api.internal',
      'node-1.example.com',
    ]) {
      assert.equal(loadConfig({ HOST: host }).host, host);
    }
    assert.ok(defaults.ipAllowlist.check('127.0.0.1', 'ipv4'));
    assert.ok(defaults.ipAllowlist.check('::1', 'ipv6'));
    assert.ok(!defaults.ipAllowlist.check('10.0.0.1', 'ipv4'));

    const custom = loadConfig({
      PORT: '0',
      PUBLIC_ORIGIN: 'https://api.example.com/',
      TRUST_PROXY: 'loopback, 10.0.0.0/8',
      NODE_ENV: 'production',
      SECRET_KEY: 'k'.repeat(32),
      LOG_LEVEL: 'warn',
      IP_ALLOWLIST: '10.0.0.0/8, fe80::/10',
    });
    assert.equal(custom.port, 0);
    assert.equal(custom.publicOrigin, 'https://api.example.com');
    assert.deepEqual(custom.trustProxy, ['loopback', '10.0.0.0/8']);
    assert.equal(custom.production, true);
    assert.ok(custom.ipAllowlist.check('10.1.2.3', 'ipv4'));
    assert.equal(loadConfig({ TRUST_PROXY: 'off' }).trustProxy, false);
    for (const url of ['redis://127.0.0.1:6379', 'redis://:pw@cache:6379/3', 'rediss://cache/0']) {
      assert.equal(loadConfig({ REDIS_URL: url }).redisUrl, url);
    }
    assert.equal(loadConfig({ REDIS_URL: '' }).redisUrl, undefined);
    assert.equal(defaults.redisKeyPrefix, 'vouch:');
    assert.equal(loadConfig({ REDIS_KEY_PREFIX: '' }).redisKeyPrefix, 'vouch:');
    for (const prefix of ['vouch-staging:', 'acme.vouch_2:', 'x']) {
      assert.equal(loadConfig({ REDIS_KEY_PREFIX: prefix }).redisKeyPrefix, prefix);
    }
  });
});
