// Instructions a request costs the server, per route, counted by valgrind's callgrind instead of
// timed: the count does not change with the machine's speed, so a difference of 1 % shows in one
// run where requests/s needs many. The server (bench/server.ts, the same app as `npm run bench`)
// runs under callgrind with V8 kept single-threaded and its garbage collection on a predictable
// schedule; autocannon sends each route a fixed number of requests while the counters run, and
// they are zeroed between routes. Counts only user-space instructions: the kernel's share of a
// request (the socket calls) is not in them, so a ratio of counts is further from 1 than the
// ratio of requests/s.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchHeaders, selectRoutes } from './app.js';
import { fire, type Shot } from './load.js';
import { startServer } from './server-process.js';
import { seed, signIn, startService, workspace } from './service-process.js';
import { serviceRoutes } from './service-routes.js';
import { epilogue, preamble, repo, run, versionOf } from './machine.js';
import { parseOptions, selectFrom } from './options.js';
import {
  costsByFunction,
  countedInstructions,
  PerfMap,
  PREDICTABLE,
  selfCosts,
} from './callgrind.js';
import { markdownTable, median, thousands } from './report.js';

/** What `<command> --version` prints, or `undefined` when the command is missing or fails. */
function versionOfCommand(command: string): string | undefined {
  const result = spawnSync(command, ['--version'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

// valgrind and callgrind_control find each other through named pipes whose names hold the
// environment's HOST; the service is started with HOST=127.0.0.1 (where it listens), so every
// process here is given the same.
const VALGRIND_ENV = { HOST: '127.0.0.1' };

/** A route as counted: its path and the request sent to it. */
interface Counted {
  readonly path: string;
  readonly shot: Shot;
}

/** A server running under callgrind, with the requests to send it. */
interface Target {
  readonly pid: number;
  readonly port: number;
  /** The routes to count, baseline first. */
  readonly routes: readonly Counted[];
  /** Stops the server and waits until it has exited (valgrind writes a last dump then). */
  stop(): Promise<void>;
}

/** How the server is run: valgrind's arguments, and node's options. */
interface Launch {
  readonly valgrind: readonly string[];
  readonly node: readonly string[];
}

/** The server of `npm run bench` (bench/server.ts) under valgrind. */
async function benchServer(launch: Launch, routeOption: string | undefined): Promise<Target> {
  const routes = selectRoutes(routeOption).map((route) => ({
    path: route.path,
    shot: { path: route.path, headers: benchHeaders },
  }));
  const server = await startServer(repo, launch.node, {
    launcher: ['valgrind', ...launch.valgrind],
    env: VALGRIND_ENV,
  });
  return { pid: server.pid, port: server.port, routes, stop: () => server.close() };
}

/**
 * The illustrated service (service/server.ts) over a fresh SQLite database, as
 * `npm run bench:service` runs it, but under `valgrind`. Its user, key, token and session are
 * made first by the same service run natively (scrypt under valgrind would take minutes); they
 * are kept in the database, so the service under valgrind takes them as its own.
 */
async function serviceServer(launch: Launch, routeOption: string | undefined): Promise<Target> {
  const selected = selectFrom(serviceRoutes, routeOption);
  const space = await workspace();
  try {
    const { password, apiKey } = await seed(space.env);
    const native = await startService(space.env);
    const signedIn = await signIn(native.port, password).finally(() => native.close());
    const credentials = { ...signedIn, apiKey };
    const service = await startService(space.env, {
      launcher: ['valgrind', ...launch.valgrind],
      nodeOptions: launch.node,
      startTimeoutMs: 600_000,
    });
    const routes = selected.map((route) => ({ path: route.path, shot: route.shot(credentials) }));
    return {
      pid: service.pid,
      port: service.port,
      routes,
      async stop() {
        await service.close();
        await space.remove();
      },
    };
  } catch (error) {
    await space.remove();
    throw error;
  }
}

async function main(): Promise<number> {
  const { read, flags } = parseOptions({
    requests: { type: 'string' },
    'warmup-requests': { type: 'string' },
    routes: { type: 'string' },
    'by-function': { type: 'boolean', default: false },
    functions: { type: 'string' },
    service: { type: 'boolean', default: false },
  });
  const byFunction = flags['by-function'] === true;
  const functions = Math.round(read.number('functions', 12, 1));
  const ofService = flags.service === true;
  const requests = Math.round(read.number('requests', 4000, 100));
  const warmup = Math.round(read.number('warmup-requests', 8000, 0));
  const rounds = Math.round(read.number('rounds', 3, 1));
  const connections = Math.round(read.number('connections', 10, 1));
  const valgrind = versionOfCommand('valgrind');
  if (valgrind === undefined || versionOfCommand('callgrind_control') === undefined) {
    console.error('valgrind is needed (Debian: apt-get install valgrind)');
    return 1;
  }
  const started = await preamble(
    ofService
      ? 'vouch: instructions per request of the illustrated service, counted by callgrind'
      : 'vouch: instructions per request, counted by callgrind',
    ofService ? ['src', 'service'] : ['src'],
    {
      settings: `${rounds} rounds × ${requests} requests a route after ${warmup} each to warm up, ${connections} connections; node ${PREDICTABLE.join(' ')}`,
      versions: `fastify ${versionOf('fastify') ?? '?'}, valgrind ${valgrind}`,
    },
  );

  // With --by-function, the last round's counts are also dumped per route with instruction
  // addresses, and V8 names its generated code in /tmp/perf-<pid>.map to attribute them.
  const dumps = byFunction ? mkdtempSync(join(tmpdir(), 'vouch-callgrind-')) : undefined;
  const launch: Launch = {
    valgrind: [
      '--tool=callgrind',
      ...(dumps === undefined
        ? ['--callgrind-out-file=/dev/null']
        : ['--dump-instr=yes', `--callgrind-out-file=${join(dumps, 'callgrind.out')}`]),
    ],
    node: [...PREDICTABLE, ...(byFunction ? ['--perf-basic-prof'] : [])],
  };
  const target = await (
    ofService
      ? serviceServer(launch, read.text('routes'))
      : benchServer(launch, read.text('routes'))
  ).catch((error: unknown) => {
    if (dumps !== undefined) rmSync(dumps, { recursive: true, force: true });
    throw error;
  });
  const { port, routes } = target;
  const pid = String(target.pid);
  const perfMapPath = `/tmp/perf-${pid}.map`;
  // Per route of the last round: how much of the perf map had been written at its dump.
  const mapLengths = new Map<string, number>();
  const control = (...args: string[]) =>
    execFileSync('callgrind_control', [...args, pid], {
      encoding: 'utf8',
      env: { ...process.env, ...VALGRIND_ENV },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  const settings = { connections, pipelining: 1 };

  try {
    for (const route of routes) {
      process.stdout.write(`warm-up   ${route.path}\n`);
      await fire(port, route.shot, { requests: warmup }, settings);
    }
    const counts = new Map<string, number[]>(routes.map((route) => [route.path, []]));
    for (let round = 1; round <= rounds; round++) {
      for (const route of routes) {
        control('--zero');
        await fire(port, route.shot, { requests }, settings);
        const perRequest = countedInstructions(control('-e', 'Ir')) / requests;
        counts.get(route.path)!.push(perRequest);
        if (dumps !== undefined && round === rounds) {
          control('--dump');
          mapLengths.set(route.path, readFileSync(perfMapPath, 'utf8').length);
        }
        console.log(
          `round ${round}/${rounds}  ${route.path.padEnd(22)} ${thousands(perRequest)} instructions/request`,
        );
      }
    }

    const baseline = median(counts.get(routes[0]!.path)!);
    const rows = routes.map((route) => {
      const values = counts.get(route.path)!;
      const mid = median(values);
      return {
        path: route.path,
        median: mid,
        min: Math.min(...values),
        max: Math.max(...values),
        beyond: mid - baseline,
        ratio: baseline / mid,
      };
    });
    console.log('');
    console.log(
      markdownTable([
        ['route', 'instructions/request', 'min–max', 'beyond baseline', 'ratio'],
        ...rows.map((row) => [
          row.path,
          thousands(row.median),
          `${thousands(row.min)}–${thousands(row.max)}`,
          row.path === routes[0]!.path ? '—' : thousands(row.beyond),
          `${row.ratio.toFixed(3)}×`,
        ]),
      ]),
    );
    console.log('');
    console.log(
      'ratio     the baseline’s instructions over the route’s; user space only (the kernel’s socket work is not counted)',
    );
    if (dumps !== undefined) {
      printByFunction(
        routes.map((route) => route.path),
        dumps,
        perfMapPath,
        mapLengths,
        requests,
        functions,
      );
    }
    epilogue('instructions', started, [], {
      requests,
      warmup,
      rounds,
      connections,
      rows,
      counts: Object.fromEntries(counts),
    });
    return 0;
  } finally {
    // valgrind writes a last dump as it exits: remove the directory after that.
    await target.stop();
    if (dumps !== undefined) {
      rmSync(dumps, { recursive: true, force: true });
      rmSync(perfMapPath, { force: true });
    }
  }
}

/**
 * For each route of the last round, the `functions` whose own instructions per request grew
 * most over the baseline's: what the route's extra work is made of.
 */
function printByFunction(
  paths: readonly string[],
  dumps: string,
  perfMapPath: string,
  mapLengths: ReadonlyMap<string, number>,
  requests: number,
  functions: number,
): void {
  const perfMap = readFileSync(perfMapPath, 'utf8');
  const shorten = (name: string) =>
    name.replaceAll(pathToFileURL(repo).href, '').replaceAll(repo, '');
  // The dumps are numbered in the order they were taken: the routes' order.
  const perRoute = paths.map((path, i) => {
    const sums = costsByFunction(
      selfCosts(readFileSync(join(dumps, `callgrind.out.${i + 1}`), 'utf8')),
      new PerfMap(perfMap.slice(0, mapLengths.get(path))),
    );
    return new Map([...sums].map(([name, cost]) => [shorten(name), cost / requests]));
  });
  const baseline = perRoute[0]!;
  for (const [i, path] of paths.entries()) {
    if (i === 0) continue;
    const costs = perRoute[i]!;
    const grown = [...new Set([...costs.keys(), ...baseline.keys()])]
      .map((name) => ({ name, here: costs.get(name) ?? 0, there: baseline.get(name) ?? 0 }))
      .sort((a, b) => b.here - b.there - (a.here - a.there))
      .slice(0, functions);
    console.log('');
    console.log(
      `${path}: the functions that grew most over ${paths[0]!} (own instructions a request, last round)`,
    );
    console.log(
      markdownTable([
        ['function', paths[0]!, path, 'difference'],
        ...grown.map((row) => [
          row.name.length > 90 ? `${row.name.slice(0, 89)}…` : row.name,
          thousands(row.there),
          thousands(row.here),
          thousands(row.here - row.there),
        ]),
      ]),
    );
  }
}

run(main);
