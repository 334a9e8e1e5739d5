import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { APIKeyHeader, type AuthSpec } from '../index.js';
import { build } from '../../test/helpers/build.js';
import { router } from './router.js';

/** An authenticator that accepts its own name in X-Key and reports which level won. */
function level(name: string) {
  return new APIKeyHeader({
    name: `level_${name}`,
    paramName: 'X-Key',
    authenticate: (_request, key) => (key === name ? name : undefined),
  });
}
const api = level('api');
const parent = level('parent');
const parentMount = level('parentMount');
const own = level('own');
const mount = level('mount');
const operation = level('operation');

/** Which level's key the route accepts, or 'none' when it needs no key at all. */
async function winner(app: FastifyInstance, url: string): Promise<string> {
  const open = await app.inject({ url });
  if (open.statusCode === 200) return 'none';
  for (const name of ['api', 'parent', 'parentMount', 'own', 'mount', 'operation']) {
    const response = await app.inject({ url, headers: { 'x-key': name } });
    if (response.statusCode === 200) return name;
  }
  return 'nobody';
}

interface Levels {
  api?: AuthSpec;
  parentOwn?: AuthSpec;
  parentMount?: AuthSpec;
  own?: AuthSpec;
  mount?: AuthSpec;
  operation?: AuthSpec;
}

/** An API with a parent router and a child router inside it; each level set only when given. */
async function nested(t: TestContext, levels: Levels): Promise<FastifyInstance> {
  const app = await build(t, { csrf: false, ...('api' in levels ? { auth: levels.api } : {}) });
  const child = router('own' in levels ? { auth: levels.own } : {}, async (r) => {
    r.get('/op', 'operation' in levels ? { auth: levels.operation } : {}, async (request) => ({
      auth: request.auth,
    }));
  });
  const outer = router('parentOwn' in levels ? { auth: levels.parentOwn } : {}, async (r) => {
    await r.register(child, {
      prefix: '/child',
      ...('mount' in levels ? { auth: levels.mount } : {}),
    });
  });
  await app.register(outer, {
    prefix: '/parent',
    ...('parentMount' in levels ? { auth: levels.parentMount } : {}),
  });
  return app;
}

describe('precedence: operation → mount → router → parent router → API (contract §2)', () => {
  const rows: { levels: Levels; wins: string }[] = [
    { levels: {}, wins: 'none' },
    { levels: { api }, wins: 'api' },
    { levels: { api, parentOwn: parent }, wins: 'parent' },
    { levels: { api, parentOwn: parent, parentMount }, wins: 'parentMount' },
    { levels: { api, parentOwn: parent, own }, wins: 'own' },
    { levels: { api, parentOwn: parent, own, mount }, wins: 'mount' },
    { levels: { api, parentOwn: parent, own, mount, operation }, wins: 'operation' },
    { levels: { api, own, operation: null }, wins: 'none' },
    { levels: { api, own: null }, wins: 'none' },
    { levels: { api, own, mount: null }, wins: 'none' },
    { levels: { api: null, own }, wins: 'own' },
    { levels: { api, parentOwn: null }, wins: 'none' },
    { levels: { api, parentOwn: null, own }, wins: 'own' },
    { levels: { parentMount: null, mount: operation }, wins: 'operation' },
  ];
  for (const row of rows) {
    const set = Object.entries(row.levels)
      .map(([key, value]) => `${key}=${value === null ? 'null' : 'set'}`)
      .join(', ');
    it(`${set || 'nothing set'} → ${row.wins}`, async (t) => {
      const app = await nested(t, row.levels);
      assert.equal(await winner(app, '/parent/child/op'), row.wins);
    });
  }

  it('a plain encapsulated plugin registered with { auth } is a router mount', async (t) => {
    const app = await build(t, { auth: api, csrf: false });
    await app.register(
      async (r) => {
        r.get('/op', async () => ({}));
      },
      { prefix: '/plain', auth: own },
    );
    assert.equal(await winner(app, '/plain/op'), 'own');
  });

  it('sibling routers do not leak their auth into each other', async (t) => {
    const app = await build(t, { auth: api, csrf: false });
    const a = router({ auth: own }, async (r) => {
      r.get('/op', async () => ({}));
    });
    const b = router({}, async (r) => {
      r.get('/op', async () => ({}));
    });
    await app.register(a, { prefix: '/a' });
    await app.register(b, { prefix: '/b' });
    assert.equal(await winner(app, '/a/op'), 'own');
    assert.equal(await winner(app, '/b/op'), 'api');
  });

  it("protects both spellings of a router's root route", async (t) => {
    const app = await build(t, { csrf: false });
    await app.register(
      router({ auth: own }, async (r) => {
        r.get('/', async () => ({}));
      }),
      { prefix: '/events' },
    );
    assert.equal(await winner(app, '/events'), 'own');
    assert.equal(await winner(app, '/events/'), 'own');
  });

  it('one router mounted twice with different auth', async (t) => {
    const app = await build(t, { csrf: false });
    const events = router({ auth: own }, async (r) => {
      r.get('/op', async () => ({}));
    });
    await app.register(events, { prefix: '/one' });
    await app.register(events, { prefix: '/two', auth: mount });
    assert.equal(await winner(app, '/one/op'), 'own');
    assert.equal(await winner(app, '/two/op'), 'mount');
  });
});

describe('configuration errors stop start-up and name the route (contract §2)', () => {
  async function startup(t: TestContext, declare: (app: FastifyInstance) => void | Promise<void>) {
    const app = await build(t, { csrf: false });
    const start = async () => {
      await declare(app);
      await app.ready();
    };
    return start;
  }
  const rows: {
    name: string;
    declare: (app: FastifyInstance) => void | Promise<void>;
    message: RegExp;
  }[] = [
    {
      name: 'empty list',
      declare: (app) => void app.get('/empty', { auth: [] }, async () => ({})),
      message: /GET \/empty.*auth: null/,
    },
    {
      name: 'unknown value',
      declare: (app) => void app.get('/odd', { auth: 'bearer' as never }, async () => ({})),
      message: /GET \/odd/,
    },
    {
      name: 'nested list',
      declare: (app) => void app.get('/nest', { auth: [[api]] as never }, async () => ({})),
      message: /GET \/nest/,
    },
    {
      name: 'two schemes under one name',
      declare: (app) => {
        app.get(
          '/one',
          { auth: new APIKeyHeader({ name: 'dup', paramName: 'A', authenticate: () => 1 }) },
          async () => ({}),
        );
        app.get(
          '/two',
          { auth: new APIKeyHeader({ name: 'dup', paramName: 'B', authenticate: () => 1 }) },
          async () => ({}),
        );
      },
      message: /GET \/two.*"dup".*GET \/one/,
    },
    {
      name: 'unknown value at mount',
      declare: async (app) => {
        await app.register(async (r) => void r.get('/op', async () => ({})), {
          prefix: '/m',
          auth: 42 as never,
        });
      },
      message: /\/m\/op/,
    },
    {
      name: 'csrf not a boolean at mount',
      declare: async (app) => {
        await app.register(async () => {}, { prefix: '/m', csrf: 'no' as never });
      },
      message: /\/m.*csrf must be a boolean/,
    },
    {
      name: 'csrf not a boolean',
      declare: (app) => void app.get('/c', { auth: null, csrf: 'no' as never }, async () => ({})),
      message: /GET \/c/,
    },
  ];
  for (const row of rows) {
    it(row.name, async (t) => {
      await assert.rejects(await startup(t, row.declare), (error: Error & { code?: string }) => {
        assert.equal(error.code, 'VOUCH_ERR_CONFIGURATION');
        assert.match(error.message, row.message);
        return true;
      });
    });
  }

  it('an empty list in the plugin options', async (t) => {
    const app = (await import('fastify')).default();
    t.after(() => app.close());
    const { vouch } = await import('./plugin.js');
    await assert.rejects(
      async () => {
        await app.register(vouch, { auth: [] });
      },
      { code: 'VOUCH_ERR_CONFIGURATION' },
    );
  });

  it('an empty list when a router is created', () => {
    assert.throws(() => router({ auth: [] }, async () => {}), { code: 'VOUCH_ERR_CONFIGURATION' });
    assert.throws(() => router({ csrf: 1 as never }, async () => {}), {
      code: 'VOUCH_ERR_CONFIGURATION',
    });
  });

  it('a router used without the plugin', async (t) => {
    const app = (await import('fastify')).default();
    t.after(() => app.close());
    await assert.rejects(
      async () => {
        await app.register(
          router({ auth: api }, async () => {}),
          { prefix: '/x' },
        );
      },
      { code: 'VOUCH_ERR_CONFIGURATION' },
    );
  });
});
