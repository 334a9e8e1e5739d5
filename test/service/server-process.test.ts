// The real server process: it stops at once on a bad variable, naming it, prints demo credentials
// once on a new database, and exits 0 on SIGTERM. (loadConfig and openStore refuse each bad
// variable by name: their own tests, beside them, prove it.)
import assert from 'node:assert/strict';

import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { redisNamespace } from '../helpers/services.js';
import { tcpProxy } from '../helpers/tcp-proxy.js';
import { freePort, STARTUP_MS } from '../helpers/wait.js';
import { tempDir } from './helpers.js';
import { runServer } from './processes.js';

const LISTENING = /"msg":"vouch service listening"/;

interface Demo {
  username: string;
  password: string;
  apiKey: string;
  docs: string;
}

function demoOf(stdout: string): Demo {
  const field = (pattern: RegExp): string => {
    const value = pattern.exec(stdout)?.[1];
    assert.ok(value !== undefined, `${String(pattern)} in\n${stdout}`);
    return value;
  };
  return {
    username: field(/^ {2}user +(\S+)$/m),
    password: field(/^ {2}password +(\S+)$/m),
    apiKey: field(/^ {2}API key +(\S+)$/m),
    docs: field(/^Try them at (\S+)$/m),
  };
}

/** The demo credentials work against the running process. */
async function assertDemoWorks(base: string, demo: Demo): Promise<void> {
  const tokenResponse = await fetch(`${base}/api/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: demo.username, password: demo.password }).toString(),
  });
  assert.equal(tokenResponse.status, 200);
  const { token } = (await tokenResponse.json()) as { token: string };
  const bearer = await fetch(`${base}/api/bearer`, {
    headers: { authorization: `Bearer ${token}` },
  });
  assert.equal(bearer.status, 200);
  const key = await fetch(`${base}/api/headerkey`, { headers: { 'x-api-key': demo.apiKey } });
  assert.equal(key.status, 200);
  assert.match(await key.text(), /demo application/);
}

describe('the server process', { concurrency: true }, () => {
  const refused: readonly [NodeJS.ProcessEnv, string][] = [
    // One refused by loadConfig, one by openStore: the two ways start-up can fail on configuration
    // (every variable is covered by the loadConfig table in service/config/config.test.ts).
    [{ PORT: 'abc' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
  ];
  for (const [env, variable] of refused) {
    it(`exits non-zero naming ${variable} for ${JSON.stringify(env)}`, async (t) => {
      const dir = await tempDir(t);
      const server = runServer(t, { DATABASE_URL: `sqlite:${join(dir, 'vouch.db')}`, ...env });
      const { code } = await server.exited;
      assert.notEqual(code, 0);
      assert.notEqual(code, null);
      assert.match(server.stderr(), new RegExp(`^vouch: cannot start: ${variable}: `));
      // Named once: the message does not repeat the variable.
      assert.equal(server.stderr().split(variable).length - 1, 1, server.stderr());
      assert.doesNotMatch(server.stdout(), /demo credentials/);
    });
  }

  for (const variable of ['DATABASE_URL', 'REDIS_URL']) {
    it(`exits non-zero naming ${variable} when its server is unreachable, never echoing its password`, async (t) => {
      const dir = await tempDir(t);
      const port = await freePort();
      const server = runServer(t, {
        DATABASE_URL: `sqlite:${join(dir, 'vouch.db')}`,
        [variable]:
          variable === 'REDIS_URL'
            ? `redis://:s3cret-pw@127.0.0.1:${port}/0`
            : `postgres://vouch:s3cret-pw@127.0.0.1:${port}/vouch`,
      });
      const { code } = await server.exited;
      assert.equal(code, 1);
      assert.match(
        server.stderr(),
        new RegExp(
          `^vouch: cannot start: ${variable}: cannot use \\S+127\\.0\\.0\\.1:${port}\\S*: .*ECONNREFUSED`,
          'm',
        ),
      );
      assert.doesNotMatch(server.stderr() + server.stdout(), /s3cret-pw/);
    });
  }

  it('exits non-zero naming REDIS_URL when Redis accepts connections but never answers', async (t) => {
    const namespace = await redisNamespace(t);
    if (namespace === undefined) return;
    const target = new URL(namespace.url);
    const proxy = await tcpProxy(t, target.hostname, Number(target.port || 6379));
    proxy.silence();
    const dir = await tempDir(t);
    const started = Date.now();
    const server = runServer(t, {
      DATABASE_URL: `sqlite:${join(dir, 'vouch.db')}`,
      REDIS_URL: `redis://127.0.0.1:${proxy.port}${target.pathname}`,
      REDIS_KEY_PREFIX: namespace.keyPrefix,
    });
    const { code } = await server.exited;
    assert.equal(code, 1);
    assert.match(
      server.stderr(),
      /^vouch: cannot start: REDIS_URL: cannot use \S+: Redis did not answer within 1000 ms$/m,
    );
    // Redis gets 1 s; a process that waited on the silent server would never exit. The bound only
    // tells exiting from hanging: starting the process takes up to STARTUP_MS by itself.
    assert.ok(Date.now() - started < STARTUP_MS, `exited after ${Date.now() - started} ms`);
  });

  it('prints demo credentials once on a new database; they work; SIGTERM exits 0', async (t) => {
    const dir = await tempDir(t);
    const env = {
      DATABASE_URL: `sqlite:${join(dir, 'vouch.db')}`,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
    };

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const first = runServer(t, { ...env, PORT: String(port) });
    await first.waitFor(LISTENING);
    const output = first.stdout();
    assert.equal(output.match(/demo credentials/g)?.length, 1);
    const demo = demoOf(output);
    assert.equal(demo.username, 'demo');
    assert.match(demo.apiKey, /^vk_/);
    assert.equal(demo.docs, `${base}/api/docs`);
    const docs = await fetch(demo.docs);
    assert.equal(docs.status, 200);
    await assertDemoWorks(base, demo);
    // Shown on the terminal only: no log line carries them.
    const logLines = output.split('\n').filter((line) => line.startsWith('{'));
    assert.ok(logLines.length > 0);
    for (const secret of [demo.password, demo.apiKey]) {
      assert.deepEqual(
        logLines.filter((line) => line.includes(secret)),
        [],
      );
    }
    assert.deepEqual(await first.stop(), { code: 0, signal: null });

    const secondPort = await freePort();
    const second = runServer(t, { ...env, PORT: String(secondPort) });
    await second.waitFor(LISTENING);
    assert.doesNotMatch(second.stdout(), /demo credentials|API key|password/);
    await assertDemoWorks(`http://127.0.0.1:${secondPort}`, demo);
    assert.deepEqual(await second.stop(), { code: 0, signal: null });
  });

  it('npm start stops gracefully when the npm process is sent SIGTERM', async (t) => {
    const dir = await tempDir(t);
    const port = await freePort();
    const npm = spawn('npm', ['start'], {
      cwd: fileURLToPath(new URL('../../', import.meta.url)),
      env: {
        ...process.env,
        DATABASE_URL: `sqlite:${join(dir, 'vouch.db')}`,
        PORT: String(port),
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so that whatever outlives npm can be found and stopped.
      detached: true,
    });
    let output = '';
    npm.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    t.after(() => {
      try {
        process.kill(-npm.pid!, 'SIGKILL');
      } catch {
        // The whole group is gone already, as it should be.
      }
    });
    const deadline = Date.now() + STARTUP_MS;
    while (!LISTENING.test(output)) {
      assert.ok(Date.now() < deadline, `npm start never listened:\n${output}`);
      await sleep(50);
    }
    npm.kill('SIGTERM');
    const [code] = (await once(npm, 'exit')) as [number | null];
    assert.equal(code, 0);
    assert.match(output, /"signal":"SIGTERM","msg":"shutting down"/);
    // Nothing of the group is left: the server stopped, and its port is free.
    const gone = Date.now() + 5000;
    const alive = () => {
      try {
        process.kill(-npm.pid!, 0);
        return true;
      } catch {
        return false;
      }
    };
    while (alive()) {
      assert.ok(Date.now() < gone, 'a process of npm start outlived it');
      await sleep(50);
    }
    await assert.rejects(fetch(`http://127.0.0.1:${port}/api/version`));
  });

  it('with PORT=0, prints the docs address of the port actually bound', async (t) => {
    const dir = await tempDir(t);
    const server = runServer(t, { DATABASE_URL: `sqlite:${join(dir, 'vouch.db')}`, PORT: '0' });
    const address = (await server.waitFor(/"address":"(http:\/\/[^"]+)"/))[1];
    const { docs } = demoOf(server.stdout());
    assert.equal((await server.stop()).code, 0);
    assert.equal(docs, `${address}/api/docs`);
  });
});
