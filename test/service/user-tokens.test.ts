// Every token of one user revoked with the real CLI, on two instances of the service as real
// processes: on one SQLite file, on PostgreSQL with Redis, and on PostgreSQL alone. Once the
// command has exited, either instance refuses each of the user's tokens at the next request,
// though it answered them from memory just before; another user's token keeps working.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { postgresDatabase, redisNamespace } from '../helpers/services.js';
import { bearer, getToken, tempDir } from './helpers.js';
import { cli, startInstance, type Instance } from './processes.js';

const ALICE = 'correct horse battery staple';
const BOB = 'bob has a password too';

/** The status `GET /api/bearer` answers with this token, its body read. */
async function bearerOf(instance: Instance, token: string): Promise<number> {
  const response = await instance.fetch('/api/bearer', { headers: bearer(token) });
  await response.arrayBuffer();
  return response.status;
}

/**
 * Alice's tokens from either of two instances sharing `env` (as the CLI is given it), all revoked
 * with `token revoke --user alice`: refused by both at the next request; bob's keeps working, and
 * so does a token alice gets afterwards (the command revokes, it locks nobody out).
 */
async function revokeAlicesTokens(env: NodeJS.ProcessEnv, a: Instance, b: Instance) {
  await cli(env, ['user', 'add', 'alice'], `${ALICE}\n`);
  await cli(env, ['user', 'add', 'bob'], `${BOB}\n`);
  const alices = [
    await getToken(a, 'alice', ALICE),
    await getToken(b, 'alice', ALICE),
    await getToken(a, 'alice', ALICE),
  ];
  const bobs = await getToken(b, 'bob', BOB);
  // Each used on both, twice: the second answer comes from each instance's memory.
  for (const instance of [a, b, a, b]) {
    for (const token of [...alices, bobs]) assert.equal(await bearerOf(instance, token), 200);
  }

  assert.equal(
    await cli(env, ['token', 'revoke', '--user', 'alice']),
    '3 tokens of user alice revoked\n',
  );
  for (const instance of [a, b]) {
    for (const [index, token] of alices.entries()) {
      assert.equal(await bearerOf(instance, token), 401, `token ${index} on ${instance.base}`);
    }
    assert.equal(await bearerOf(instance, bobs), 200, "bob's token keeps working");
  }
  const later = await getToken(b, 'alice', ALICE);
  for (const instance of [a, b]) assert.equal(await bearerOf(instance, later), 200);
}

describe("token revoke --user: the user's tokens refused by every instance at the next request", () => {
  it('two processes on one SQLite file', async (t) => {
    const env = { DATABASE_URL: `sqlite:${join(await tempDir(t), 'vouch.db')}` };
    // One after the other: the first creates the database.
    const a = await startInstance(t, env);
    const b = await startInstance(t, env);
    await revokeAlicesTokens(env, a, b);
  });

  for (const withRedis of [true, false]) {
    it(withRedis ? 'PostgreSQL and Redis' : 'PostgreSQL alone', async (t: TestContext) => {
      const database = await postgresDatabase(t);
      const redis = withRedis ? await redisNamespace(t) : undefined;
      if (database === undefined || (withRedis && redis === undefined)) return;
      const env = {
        DATABASE_URL: database.url,
        ...(redis === undefined ? {} : { REDIS_URL: redis.url, REDIS_KEY_PREFIX: redis.keyPrefix }),
      };
      const [a, b] = await Promise.all([startInstance(t, env), startInstance(t, env)]);
      await revokeAlicesTokens(env, a, b);
    });
  }
});
