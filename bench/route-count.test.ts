// Proves that what `npm run bench:routes` times is what it claims: on every engine and route
// count, the last route of each app answers as timed, refuses without the Bearer token where vouch
// guards it, keeps answering under a short load, and the public routes of the vouch apps stay open;
// and the arithmetic of its table on known runs.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { fire, verify } from './load.js';
import { summarise, type Run } from './report.js';
import {
  COUNTS,
  ENGINES,
  publicPath,
  routeCountListener,
  routeCountShots,
  routeCountTargets,
} from './route-count-apps.js';
import { routeCountTable } from './route-count-table.js';

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
      // All at once: autocannon stops on its next one-second tick, so that is one second.
      const results = await Promise.all(
        COUNTS.flatMap((count) =>
          routeCountShots(engine, count).map((shot) =>
            fire(port(count), shot, { requests: 200 }, settings),
          ),
        ),
      );
      for (const result of results) assert.equal(result.requests, 200);
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

describe('the table of npm run bench:routes', () => {
  it('gives each count over its own baseline, 1,000 over 10 routes, and the µs vouch added', () => {
    const target = routeCountTargets[0]!;
    const runs: Run[] = [];
    const add = (label: string, baseline: string, round: number, rate: number, micros: number) => {
      const sequence = runs.length;
      const figures = { requestsPerSecond: rate, serverMicrosPerRequest: micros };
      runs.push({ round, sequence, label, baseline, ...figures, latencyP99: 1, clientCpuShare: 0 });
    };
    // vouch: 0.9× its baseline with 10 and 100 routes, 0.45× and 120 µs more with 1,000, where the
    // baseline itself serves half as many: 0.5× over 10 routes, each over its own (not 0.25×).
    for (const round of [1, 2, 3]) {
      for (const [i, { label }] of target.baselines.entries()) {
        add(label, label, round, i === 2 ? 500 : 1000, 100);
        add(target.shots[i]!.label, label, round, i === 2 ? 225 : 900, i === 2 ? 220 : 110);
      }
    }
    for (const [i, { label }] of target.baselines.entries()) {
      add(label, label, 3, i === 2 ? 500 : 1000, 100);
    }
    const labels = [...target.shots, ...target.baselines].map((shot) => shot.label);
    const row = routeCountTable(summarise(labels, runs), runs, [target]).split('\n')[2];
    const cells = row?.split('|').map((cell) => cell.trim());
    assert.deepEqual(cells?.slice(1, -1), [
      'Express, app-wide',
      '0.90× (0.90–0.90)',
      '0.90× (0.90–0.90)',
      '0.45× (0.45–0.45)',
      '0.50× (0.50–0.50)',
      'NO',
      '+110.0',
    ]);
  });
});
