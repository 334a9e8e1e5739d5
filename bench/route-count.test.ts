// Proves that what `npm run bench:routes` times is what it claims: on every engine and route
// count, the last route of each app answers as timed, refuses without the Bearer token where vouch
// guards it, keeps answering under a short load, and the public routes of the vouch apps stay open.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { fire, verify } from './load.js';
import {
  COUNTS,
  ENGINES,
  publicPath,
  routeCountListener,
  routeCountShots,
} from './route-count-apps.js';

const settings = { connections: 4, pipelining: 1 };

for (const engine of ENGINES) {
  describe(`the ${engine} apps of npm run bench:routes`, () => {
    const servers = new Map<number, Server>();
    const port = (count: number) => (servers.get(count)!.address() as AddressInfo).port;
    before(async () => {
      for (const count of COUNTS) {
        const server = createServer(await routeCountListener(engine, count));
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        servers.set(count, server);
      }
    });
    after(async () => {
      for (const server of servers.values()) {
        await new Promise((resolve) => server.close(resolve));
      }
    });

    it('answers every timed request with a 2xx under a short load', async () => {
      // autocannon stops on its next one-second tick: all at once, that is one second.
      const results = await Promise.all(
        COUNTS.flatMap((count) =>
          routeCountShots(engine, count).map((shot) =>
            fire(port(count), shot, { requests: 200 }, settings),
          ),
        ),
      );
      for (const result of results) assert.equal(result['2xx'], 200);
    });

    for (const count of COUNTS) {
      for (const shot of routeCountShots(engine, count)) {
        it(`${shot.path} (${shot.label}) answers as timed, and refuses`, async () => {
          await verify(port(count), shot);
        });
      }

      it(`${count} routes: the public routes of both vouch apps answer without a credential`, async () => {
        for (const app of ['app-wide', 'per-route'] as const) {
          const response = await fetch(`http://127.0.0.1:${port(count)}${publicPath(app, count)}`);
          assert.equal(response.status, 200, `${app}: ${await response.text()}`);
        }
      });
    }
  });
}
