// Several instances of the service, as real processes, on one PostgreSQL database (a fresh one
// per test) and one Redis key prefix (a fresh one per test): what one issues all honour, what is taken away
// anywhere is refused everywhere within a second, failed sign-ins count wherever they are made,
// and outages are answered 503 and recovered from without a restart.
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import pg from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { asAdmin, postgresDatabase, redisNamespace } from '../helpers/services.js';
import { tcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { freePort, until } from '../helpers/wait.js';
import { basic, bearer, form, setCookies } from './helpers.js';
import { cli, LISTENING, runServer, startInstance, type Instance } from './processes.js';

const PASSWORD = 'correct horse battery staple';

/** Two instances on one database, the environment they share, and the database's name. */
interface Cluster {
  readonly a: Instance;
  readonly b: Instance;
  readonly env: NodeJS.ProcessEnv;
  readonly database: string;
  /** Starts one more instance on the same database and Redis. */
  start(extra?: NodeJS.ProcessEnv): Promise<Instance>;
}

/**
 * A fresh PostgreSQL database (and, with `redis`, a Redis key prefix), the user `alice` added with
 * the CLI, and two instances started together; `undefined` when the test was skipped.
 */
async function cluster(
  t: TestContext,
  options: {
    redis: boolean;
    /** The instances' `REDIS_URL`, from the one the CLI uses. */
    redisUrl?: (url: string) => Promise<string>;
    /** The instances' `DATABASE_URL`, from the one the CLI uses. */
    databaseUrl?: (url: string) => Promise<string>;
  },
): Promise<Cluster | undefined> {
  const database = await postgresDatabase(t);
  const redis = options.redis ? await redisNamespace(t) : undefined;
  if (database === undefined || (options.redis && redis === undefined)) return undefined;
  const redisUrl = redis?.url;
  const env: NodeJS.ProcessEnv = {
    DATABASE_URL: database.url,
    ...(redis === undefined ? {} : { REDIS_URL: redis.url, REDIS_KEY_PREFIX: redis.keyPrefix }),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
  };
  await cli(env, ['user', 'add', 'alice'], `${PASSWORD}\n`);
  const instanceRedis =
    redisUrl !== undefined && options.redisUrl !== undefined
      ? await options.redisUrl(redisUrl)
      : redisUrl;
  const instanceDatabase =
    options.databaseUrl === undefined ? database.url : await options.databaseUrl(database.url);
  const start = (extra: NodeJS.ProcessEnv = {}): Promise<Instance> =>
    startInstance(t, {
      ...env,
      DATABASE_URL: instanceDatabase,
      ...(instanceRedis === undefined ? {} : { REDIS_URL: instanceRedis }),
      ...extra,
    });
  const [a, b] = await Promise.all([start(), start()]);
  return { a, b, env, database: database.name, start };
}

async function token(instance: Instance): Promise<string> {
  const response = await instance.fetch(
    '/api/token',
    form({ username: 'alice', password: PASSWORD }),
  );
  assert.equal(response.status, 200, await response.clone().text());
  return ((await response.json()) as { token: string }).token;
}

async function signIn(instance: Instance): Promise<{ cookie: string; csrftoken: string }> {
  const response = await instance.fetch(
    '/api/auth/login',
    form({ username: 'alice', password: PASSWORD }),
  );
  assert.equal(response.status, 200);
  const cookies = setCookies(response);
  const sessionid = cookies.get('sessionid')?.value ?? '';
  const csrftoken = cookies.get('csrftoken')?.value ?? '';
  return { cookie: `sessionid=${sessionid}; csrftoken=${csrftoken}`, csrftoken };
}

/** A new application key, made with the CLI: its id and the key. */
async function newKey(env: NodeJS.ProcessEnv, name: string): Promise<{ id: string; key: string }> {
  const output = await cli(env, ['key', 'add', name]);
  const id = /^key (\d+) created/m.exec(output)?.[1] ?? '';
  const key = output.trimEnd().split('\n').at(-1) ?? '';
  assert.match(key, /^vk_/);
  return { id, key };
}

/** Polls until every instance answers `status` to the request; how long that took. */
async function allAnswer(
  instances: readonly Instance[],
  status: number,
  request: (instance: Instance) => Promise<Response>,
  since: number,
): Promise<number> {
  for (const instance of instances) {
    for (;;) {
      const response = await request(instance);
      await response.arrayBuffer();
      if (response.status === status) break;
      if (Date.now() - since > 5000)
        assert.fail(`${instance.base} still answers ${response.status}`);
      await sleep(10);
    }
  }
  return Date.now() - since;
}

/** Lines of the instance's JSON log whose message matches. */
function logged(instance: Instance, message: RegExp): Record<string, unknown>[] {
  return instance.server
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => message.test(String(entry.msg)));
}

/** A proxy in front of the server a URL names, and the same URL through the proxy. */
async function throughProxy(t: TestContext, url: string, defaultPort: number) {
  const target = new URL(url);
  const proxy = await tcpProxy(t, target.hostname, Number(target.port || defaultPort));
  const proxied = new URL(url);
  proxied.host = `127.0.0.1:${proxy.port}`;
  return { proxy, url: proxied.toString() };
}

/** Answers the token from memory: 200 at once while its table is locked, where a read waits. */
async function answersFromMemory(env: NodeJS.ProcessEnv, instance: Instance, token: string) {
  const holder = new pg.Client({ connectionString: env.DATABASE_URL });
  holder.on('error', () => {});
  await holder.connect();
  try {
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE tokens IN ACCESS EXCLUSIVE MODE');
    const started = Date.now();
    const response = await instance.fetch('/api/bearer', { headers: bearer(token) });
    return response.status === 200 && Date.now() - started < 1000;
  } finally {
    await holder.query('ROLLBACK');
    await holder.end();
  }
}

/** GET `path` with alice's Basic credentials. */
function asAlice(instance: Instance, password: string, path = '/api/basic'): Promise<Response> {
  return instance.fetch(path, { headers: basic('alice', password) });
}

/**
 * Makes sure both instances remember alice's `password`: each answers it while another connection
 * holds the users table, where checking it would wait for the lock.
 */
async function rememberedByBoth(cluster: Cluster, password: string): Promise<void> {
  for (const instance of [cluster.a, cluster.b]) {
    assert.equal((await asAlice(instance, password)).status, 200);
  }
  const holder = new pg.Client({ connectionString: cluster.env.DATABASE_URL });
  holder.on('error', () => {});
  await holder.connect();
  try {
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE users IN ACCESS EXCLUSIVE MODE');
    for (const instance of [cluster.a, cluster.b]) {
      const started = Date.now();
      const response = await asAlice(instance, password);
      assert.equal(response.status, 200, `${instance.base} answers from memory`);
      assert.ok(Date.now() - started < 1000, `${instance.base} took ${Date.now() - started} ms`);
    }
  } finally {
    await holder.query('ROLLBACK');
    await holder.end();
  }
}

/**
 * Polls both instances with alice's `password` on `path` until each answers `status`: how long
 * after the start the first request so answered was sent, on the slower of the two. Sent, not
 * answered: a password no longer remembered is checked in full, which takes its own time.
 */
async function bothAnswer(
  cluster: Cluster,
  status: number,
  password: string,
  path?: string,
): Promise<number> {
  const since = Date.now();
  const refusedAt = async (instance: Instance) => {
    for (;;) {
      const sent = Date.now();
      const response = await asAlice(instance, password, path);
      await response.arrayBuffer();
      if (response.status === status) return sent - since;
      assert.equal(response.status, 200, `${instance.base} answers as before until then`);
      if (Date.now() - since > 5000) assert.fail(`${instance.base} still answers 200`);
      await sleep(10);
    }
  };
  return Math.max(...(await Promise.all([cluster.a, cluster.b].map(refusedAt))));
}

describe('several instances on PostgreSQL and Redis', () => {
  it('what one issues, all honour; what is revoked anywhere, all refuse within a second', async (t) => {
    const found = await cluster(t, { redis: true });
    if (found === undefined) return;
    const { a, b, env } = found;
    for (const instance of [a, b]) {
      assert.equal(logged(instance, /^vouch service listening$/)[0]?.storage, 'PostgreSQL + Redis');
    }

    // A token from A works on B (twice: the second answer comes from B's memory).
    const fromA = await token(a);
    for (let i = 0; i < 2; i++) {
      const response = await b.fetch('/api/bearer', { headers: bearer(fromA) });
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), { token: fromA });
    }

    // A key revoked with the CLI is refused by both within a second.
    const { id, key } = await newKey(env, 'billing');
    const keyed = (instance: Instance) =>
      instance.fetch('/api/headerkey', { headers: { 'x-api-key': key } });
    for (const instance of [a, b, a, b]) assert.equal((await keyed(instance)).status, 200);
    await cli(env, ['key', 'revoke', id]);
    const keyRefused = await allAnswer([a, b], 401, keyed, Date.now());
    assert.ok(
      keyRefused < 1000,
      `the key was refused by both ${keyRefused} ms after the CLI exited`,
    );

    // So is a token revoked with the CLI.
    await cli(env, ['token', 'revoke'], `${fromA}\n`);
    const tokenRefused = await allAnswer(
      [a, b],
      401,
      (instance) => instance.fetch('/api/bearer', { headers: bearer(fromA) }),
      Date.now(),
    );
    assert.ok(tokenRefused < 1000, `the token was refused ${tokenRefused} ms after the CLI exited`);

    // A session opened on A, used on both, logged out on B (its CSRF token verifies there: the
    // generated secret is shared), is refused by A within a second.
    const session = await signIn(a);
    const pets = (instance: Instance) =>
      instance.fetch('/api/pets', { headers: { cookie: session.cookie } });
    for (const instance of [a, b, a]) assert.equal((await pets(instance)).status, 200);
    const logout = await b.fetch('/api/auth/logout', {
      method: 'POST',
      headers: { cookie: session.cookie, origin: b.base, 'x-csrftoken': session.csrftoken },
    });
    assert.equal(logout.status, 204);
    const sessionRefused = await allAnswer([a, b], 401, pets, Date.now());
    assert.ok(sessionRefused < 1000, `the session was refused ${sessionRefused} ms after logout`);
  });

  it("Basic's memory: what changes anywhere is forgotten everywhere within a second", async (t) => {
    const found = await cluster(t, { redis: true });
    if (found === undefined) return;
    const { a, b, env } = found;
    await cli(env, ['user', 'grant', 'alice', 'admin']);
    await rememberedByBoth(found, PASSWORD);
    // A wrong password is checked, never answered from memory: right after the right one too.
    for (const instance of [a, b]) {
      assert.equal((await asAlice(instance, 'not the password')).status, 401);
      assert.equal((await asAlice(instance, PASSWORD)).status, 200);
    }

    const changes: [string, string[], string, () => Promise<number>][] = [
      [
        'a new password',
        ['user', 'passwd', 'alice'],
        'a brand new passphrase\n',
        () => bothAnswer(found, 401, PASSWORD),
      ],
      [
        'a grant withdrawn',
        ['user', 'revoke-scope', 'alice', 'admin'],
        '',
        () => bothAnswer(found, 403, 'a brand new passphrase', '/api/admin/users'),
      ],
      [
        'a lock',
        ['user', 'lock', 'alice'],
        '',
        () => bothAnswer(found, 401, 'a brand new passphrase'),
      ],
      [
        'a removal',
        ['user', 'remove', 'alice'],
        '',
        () => bothAnswer(found, 401, 'a brand new passphrase'),
      ],
    ];
    let password = PASSWORD;
    for (const [what, command, input, refused] of changes) {
      await rememberedByBoth(found, password);
      if (what === 'a grant withdrawn') {
        for (const instance of [a, b]) {
          assert.equal((await asAlice(instance, password, '/api/admin/users')).status, 200);
        }
      }
      await cli(env, command, input);
      const took = await refused();
      assert.ok(took < 1000, `${what} was seen by both within ${took} ms after the CLI exited`);
      if (input !== '') password = input.trim();
      // Unlocked, the same password is remembered again (by the next step).
      if (what === 'a lock') await cli(env, ['user', 'unlock', 'alice']);
    }
  });

  it("a new password ends the user's sessions everywhere; tokens live on; a lock refuses all", async (t) => {
    const found = await cluster(t, { redis: true });
    if (found === undefined) return;
    const { a, b, env } = found;
    const sessions = [await signIn(a), await signIn(b)];
    const fromA = await token(a);
    const pets = (cookie: string) => (instance: Instance) =>
      instance.fetch('/api/pets', { headers: { cookie } });
    const bearing = (instance: Instance) =>
      instance.fetch('/api/bearer', { headers: bearer(fromA) });
    // Each used on both, twice: the second answer comes from each instance's memory.
    for (const instance of [a, b, a, b]) {
      for (const { cookie } of sessions) assert.equal((await pets(cookie)(instance)).status, 200);
      assert.equal((await bearing(instance)).status, 200);
    }

    const NEW = 'a brand new passphrase';
    assert.equal(
      await cli(env, ['user', 'passwd', 'alice'], `${NEW}\n`),
      'password of user alice changed; 2 sessions ended, tokens kept\n',
    );
    const changed = Date.now();
    for (const { cookie } of sessions) {
      const ended = await allAnswer([a, b], 401, pets(cookie), changed);
      assert.ok(ended < 1000, `a session was refused by both ${ended} ms after the CLI exited`);
    }
    for (const instance of [a, b]) assert.equal((await bearing(instance)).status, 200);

    // Everything of a locked user's is refused everywhere: a session of the new password, the
    // token, the password itself (remembered by both); an unlock gives them back.
    const signedIn = await b.fetch('/api/auth/login', form({ username: 'alice', password: NEW }));
    assert.equal(signedIn.status, 200);
    const fresh = `sessionid=${setCookies(signedIn).get('sessionid')?.value ?? ''}`;
    await rememberedByBoth(found, NEW);
    const uses = [pets(fresh), bearing, (instance: Instance) => asAlice(instance, NEW)];
    for (const use of uses) await allAnswer([a, b], 200, use, Date.now());
    await cli(env, ['user', 'lock', 'alice']);
    const locked = Date.now();
    for (const use of [pets(fresh), bearing]) {
      const refused = await allAnswer([a, b], 401, use, locked);
      assert.ok(refused < 1000, `refused by both ${refused} ms after the CLI exited`);
    }
    // Forgotten with the rest; checked in full now, which takes its own time.
    for (const instance of [a, b]) assert.equal((await asAlice(instance, NEW)).status, 401);
    await cli(env, ['user', 'unlock', 'alice']);
    for (const use of uses) await allAnswer([a, b], 200, use, Date.now());
  });

  it('failed sign-ins on any instance count toward one limit', async (t) => {
    const found = await cluster(t, { redis: true });
    if (found === undefined) return;
    const { a, b } = found;
    // Five failures for one username from one address (the tight limit), alternating.
    const wrong = form({ username: 'alice', password: 'not the password' });
    for (let i = 0; i < 5; i++) {
      const response = await (i % 2 === 0 ? a : b).fetch('/api/token', wrong);
      assert.equal(response.status, 400, `attempt ${i + 1}`);
    }
    for (const instance of [a, b]) {
      const refused = await instance.fetch('/api/auth/login', wrong);
      assert.equal(refused.status, 429);
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
    }
  });

  it('an instance killed with SIGKILL leaves the others serving', async (t) => {
    const found = await cluster(t, { redis: true });
    if (found === undefined) return;
    const { a, b } = found;
    const fromA = await token(a);
    await a.server.kill();
    await assert.rejects(a.fetch('/api/health'));
    assert.equal((await b.fetch('/api/bearer', { headers: bearer(fromA) })).status, 200);
    assert.equal((await b.fetch('/api/bearer', { headers: bearer(await token(b)) })).status, 200);
    assert.equal((await b.fetch('/api/health')).status, 200);
  });

  it('a database refusing connections is answered 503 at once, and recovered from', async (t) => {
    const found = await cluster(t, { redis: true });
    if (found === undefined) return;
    const { a, b, env, database } = found;
    const { key } = await newKey(env, 'billing');
    const session = await signIn(a);

    await asAdmin(`ALTER DATABASE ${database} ALLOW_CONNECTIONS false`);
    await asAdmin(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${database}'`,
    );
    const requests: [string, RequestInit | undefined][] = [
      ['/api/health', undefined],
      ['/api/token', form({ username: 'alice', password: PASSWORD })],
      ['/api/auth/login', form({ username: 'alice', password: PASSWORD })],
      // Credentials this instance has not seen yet: only the database can tell.
      ['/api/headerkey', { headers: { 'x-api-key': key } }],
      ['/api/pets', { headers: { cookie: session.cookie } }],
      [
        '/api/basic',
        {
          headers: {
            authorization: `Basic ${Buffer.from(`alice:${PASSWORD}`).toString('base64')}`,
          },
        },
      ],
    ];
    for (const [path, init] of requests) {
      const started = Date.now();
      const response = await b.fetch(path, init);
      assert.equal(response.status, 503, path);
      assert.deepEqual(await response.json(), { detail: 'Service Unavailable' });
      assert.ok(Number(response.headers.get('retry-after')) > 0, path);
      assert.ok(Date.now() - started < 3000, `${path} answered in ${Date.now() - started} ms`);
    }

    await asAdmin(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`);
    await allAnswer([a, b], 200, (instance) => instance.fetch('/api/health'), Date.now());
    for (const instance of [a, b]) {
      assert.equal(
        (await instance.fetch('/api/headerkey', { headers: { 'x-api-key': key } })).status,
        200,
      );
      assert.equal(
        (await instance.fetch('/api/bearer', { headers: bearer(await token(instance)) })).status,
        200,
      );
    }
  });

  it('a database slower than its timeout is answered 503 within it', async (t) => {
    const found = await cluster(t, { redis: true });
    if (found === undefined) return;
    const { b, env } = found;
    const fresh = await token(b);
    // Another connection holds the tables every sign-in and token lookup reads.
    const holder = new pg.Client({ connectionString: env.DATABASE_URL });
    holder.on('error', () => {});
    await holder.connect();
    t.after(() => holder.end());
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE users, tokens IN ACCESS EXCLUSIVE MODE');
    for (const [path, init] of [
      ['/api/token', form({ username: 'alice', password: PASSWORD })],
      ['/api/bearer', { headers: bearer(fresh) }],
    ] as const) {
      const started = Date.now();
      const response = await b.fetch(path, init);
      const took = Date.now() - started;
      assert.equal(response.status, 503, path);
      assert.ok(Number(response.headers.get('retry-after')) > 0);
      assert.ok(took >= 1500 && took < 4000, `${path} answered in ${took} ms`);
    }
    await holder.query('ROLLBACK');
    assert.equal((await b.fetch('/api/bearer', { headers: bearer(fresh) })).status, 200);
  });

  it('without Redis instances go on from the database, count failures alone, and recover', async (t) => {
    const proxies: Awaited<ReturnType<typeof tcpProxy>>[] = [];
    const found = await cluster(t, {
      redis: true,
      // The instances reach Redis through a proxy the test can cut; the CLI reaches it directly.
      async redisUrl(url) {
        const target = new URL(url);
        const proxy = await tcpProxy(t, target.hostname, Number(target.port || 6379));
        proxies.push(proxy);
        return `redis://127.0.0.1:${proxy.port}${target.pathname}`;
      },
    });
    if (found === undefined) return;
    const { a, b, env } = found;
    const proxy = proxies[0]!;
    const fromA = await token(a);
    const { id, key } = await newKey(env, 'billing');

    proxy.cut();
    for (const instance of [a, b]) {
      await allAnswer(
        [instance],
        200,
        (i) => i.fetch('/api/bearer', { headers: bearer(fromA) }),
        Date.now(),
      );
      assert.equal(
        (await instance.fetch('/api/headerkey', { headers: { 'x-api-key': key } })).status,
        200,
      );
    }
    // Each instance now counts alone: five failures on A lock A, not B.
    const wrong = form({ username: 'alice', password: 'not the password' });
    for (let i = 0; i < 5; i++) assert.equal((await a.fetch('/api/token', wrong)).status, 400);
    assert.equal((await a.fetch('/api/token', wrong)).status, 429);
    assert.equal((await b.fetch('/api/token', wrong)).status, 400);
    // A revocation made meanwhile is read from the database by everyone.
    await cli(env, ['key', 'revoke', id]);
    await allAnswer(
      [a, b],
      401,
      (i) => i.fetch('/api/headerkey', { headers: { 'x-api-key': key } }),
      Date.now(),
    );

    proxy.restore();
    for (const instance of [a, b]) {
      await until(
        () => logged(instance, /Redis answers again/).length === 1,
        'recovery logged',
        10_000,
      );
      assert.equal(logged(instance, /Redis unreachable/).length, 1, 'the outage is logged once');
    }
    // Shared again: a token revoked now is refused everywhere within a second.
    for (const instance of [a, b, a, b]) {
      assert.equal((await instance.fetch('/api/bearer', { headers: bearer(fromA) })).status, 200);
    }
    await sleep(200);
    await cli(env, ['token', 'revoke'], `${fromA}\n`);
    const refused = await allAnswer(
      [a, b],
      401,
      (instance) => instance.fetch('/api/bearer', { headers: bearer(fromA) }),
      Date.now(),
    );
    assert.ok(refused < 1000, `refused ${refused} ms after the CLI exited`);
  });

  it('a silent Redis: what is revoked is refused within a second, from the database; logged once', async (t) => {
    let proxy: TcpProxy | undefined;
    const found = await cluster(t, {
      redis: true,
      // The instances reach Redis through a proxy the test can silence; the CLI reaches it directly.
      async redisUrl(url) {
        const proxied = await throughProxy(t, url, 6379);
        proxy = proxied.proxy;
        return proxied.url;
      },
    });
    if (found === undefined || proxy === undefined) return;
    const { a, b, env } = found;
    const [revoked, kept] = [await token(a), await token(b)];
    const uses = (instance: Instance, which: string) =>
      instance.fetch('/api/bearer', { headers: bearer(which) });
    for (const instance of [a, b, a, b]) {
      for (const which of [revoked, kept]) assert.equal((await uses(instance, which)).status, 200);
    }

    // Open, answering nothing: the revocation's news goes to Redis, never to the instances.
    proxy.silence();
    await cli(env, ['token', 'revoke'], `${revoked}\n`);
    const refused = await allAnswer([a, b], 401, (i) => uses(i, revoked), Date.now());
    assert.ok(refused < 1000, `the token was refused ${refused} ms after the CLI exited`);
    for (const instance of [a, b]) {
      const [off, ...more] = logged(instance, /^credential cache off/);
      assert.equal(more.length, 0, 'logged once');
      assert.equal(
        (off?.err as { message?: unknown } | undefined)?.message,
        'Redis did not answer within 500 ms',
      );
      assert.ok(!instance.server.stdout().includes(revoked), 'no token in the log');
    }
    // Sign-ins are answered, counted by each instance alone. The bound tells answering from
    // hanging on the silent Redis, with room for a busy host's scrypt.
    const wrong = form({ username: 'alice', password: 'not the password' });
    for (let i = 0; i < 5; i++) {
      const started = Date.now();
      assert.equal((await a.fetch('/api/token', wrong)).status, 400);
      assert.ok(Date.now() - started < 3000, `a sign-in took ${Date.now() - started} ms`);
    }
    assert.equal((await a.fetch('/api/token', wrong)).status, 429);
    assert.equal((await b.fetch('/api/token', wrong)).status, 400);
    // Shutting down does not wait for Redis.
    const stopping = Date.now();
    assert.deepEqual(await a.server.stop(), { code: 0, signal: null });
    assert.ok(Date.now() - stopping < 3000, `stopped in ${Date.now() - stopping} ms`);

    proxy.restore();
    await until(
      () => logged(b, /^credential cache on again$/).length === 1,
      'caching resumes',
      10_000,
    );
    await until(() => logged(b, /^Redis answers again/).length === 1, 'recovery logged');
    for (const message of [/^credential cache off/, /^Redis unreachable/]) {
      assert.equal(logged(b, message).length, 1, `${String(message)} logged once`);
    }
    for (let i = 0; i < 2; i++) assert.equal((await uses(b, kept)).status, 200);
    assert.ok(await answersFromMemory(env, b, kept), 'the token is kept in memory again');
    // And what is revoked is heard over Redis again.
    await cli(env, ['token', 'revoke'], `${kept}\n`);
    const heard = await allAnswer([b], 401, (i) => uses(i, kept), Date.now());
    assert.ok(heard < 1000, `refused ${heard} ms after the CLI exited`);
  });

  it('instances starting together on a new database seed the demo once', async (t) => {
    const database = await postgresDatabase(t);
    const redis = await redisNamespace(t);
    if (database === undefined || redis === undefined) return;
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      REDIS_KEY_PREFIX: redis.keyPrefix,
      LOG_LEVEL: 'info',
    };
    const servers = await Promise.all(
      [0, 1, 2].map(async () => {
        const port = await freePort();
        const server = runServer(t, { ...env, PORT: String(port) });
        await server.waitFor(LISTENING);
        return { server, base: `http://127.0.0.1:${port}` };
      }),
    );
    const seeded = servers.filter(({ server }) => /demo credentials/.test(server.stdout()));
    assert.equal(seeded.length, 1);
    const password = /^ {2}password +(\S+)$/m.exec(seeded[0]!.server.stdout())?.[1] ?? '';
    for (const { base } of servers) {
      const response = await fetch(`${base}/api/token`, form({ username: 'demo', password }));
      assert.equal(response.status, 200);
    }
  });
});

describe('several instances on PostgreSQL alone', () => {
  it('revocations reach every instance through LISTEN/NOTIFY; failures count in the database', async (t) => {
    const found = await cluster(t, { redis: false });
    if (found === undefined) return;
    const { a, b, env } = found;
    assert.equal(logged(a, /^vouch service listening$/)[0]?.storage, 'PostgreSQL');
    const { id, key } = await newKey(env, 'billing');
    const keyed = (instance: Instance) =>
      instance.fetch('/api/headerkey', { headers: { 'x-api-key': key } });
    // Until each instance listens, nothing is kept: use the key until both answer from memory.
    for (const instance of [a, b, a, b]) assert.equal((await keyed(instance)).status, 200);
    await cli(env, ['key', 'revoke', id]);
    const refused = await allAnswer([a, b], 401, keyed, Date.now());
    assert.ok(refused < 1000, `the key was refused ${refused} ms after the CLI exited`);

    const wrong = form({ username: 'alice', password: 'not the password' });
    for (let i = 0; i < 5; i++) {
      assert.equal((await (i % 2 === 0 ? a : b).fetch('/api/token', wrong)).status, 400);
    }
    for (const instance of [a, b]) {
      assert.equal((await instance.fetch('/api/token', wrong)).status, 429);
    }
  });

  it("Basic's memory: a new password or a removal reaches every instance through NOTIFY", async (t) => {
    const found = await cluster(t, { redis: false });
    if (found === undefined) return;
    const { env } = found;
    await rememberedByBoth(found, PASSWORD);
    await cli(env, ['user', 'passwd', 'alice'], 'a brand new passphrase\n');
    const changed = await bothAnswer(found, 401, PASSWORD);
    assert.ok(changed < 1000, `the old password was refused ${changed} ms after the CLI exited`);
    await rememberedByBoth(found, 'a brand new passphrase');
    await cli(env, ['user', 'remove', 'alice']);
    const removed = await bothAnswer(found, 401, 'a brand new passphrase');
    assert.ok(removed < 1000, `the user was refused ${removed} ms after the CLI exited`);
  });

  it('a silent LISTEN connection: what is revoked is refused within a second; logged once', async (t) => {
    let proxy: TcpProxy | undefined;
    const found = await cluster(t, {
      redis: false,
      // The instances reach PostgreSQL through a proxy; the CLI reaches it directly.
      async databaseUrl(url) {
        const proxied = await throughProxy(t, url, 5432);
        proxy = proxied.proxy;
        return proxied.url;
      },
    });
    if (found === undefined || proxy === undefined) return;
    const { a, b, env, database } = found;
    const [revoked, kept] = [await token(a), await token(b)];
    const uses = (instance: Instance, which: string) =>
      instance.fetch('/api/bearer', { headers: bearer(which) });
    for (const instance of [a, b, a, b]) {
      for (const which of [revoked, kept]) assert.equal((await uses(instance, which)).status, 200);
    }

    // The two listening connections, as the server sees them (the proxy's side), fall silent.
    const admin = new pg.Client({ connectionString: env.DATABASE_URL });
    await admin.connect();
    const { rows } = await admin.query<{ port: number }>(
      "SELECT client_port AS port FROM pg_stat_activity WHERE datname = $1 AND application_name = 'vouch-listen'",
      [database],
    );
    await admin.end();
    assert.equal(rows.length, 2);
    proxy.silence((connection) => rows.some(({ port }) => port === connection.upstreamPort));
    await cli(env, ['token', 'revoke'], `${revoked}\n`);
    const refused = await allAnswer([a, b], 401, (i) => uses(i, revoked), Date.now());
    assert.ok(refused < 1000, `the token was refused ${refused} ms after the CLI exited`);

    for (const instance of [a, b]) {
      await until(
        () => logged(instance, /^credential cache on again$/).length === 1,
        'listening again, on a new connection',
        10_000,
      );
      const off = logged(instance, /^credential cache off/);
      assert.equal(off.length, 1, 'logged once');
      assert.match(
        String((off[0]?.err as { message?: unknown } | undefined)?.message),
        /the listening connection to PostgreSQL did not answer within 500 ms/,
      );
    }
    for (let i = 0; i < 2; i++) assert.equal((await uses(b, kept)).status, 200);
    assert.ok(await answersFromMemory(env, b, kept), 'the token is kept in memory again');
    await cli(env, ['token', 'revoke'], `${kept}\n`);
    const heard = await allAnswer([a, b], 401, (i) => uses(i, kept), Date.now());
    assert.ok(heard < 1000, `refused ${heard} ms after the CLI exited`);
  });
});
