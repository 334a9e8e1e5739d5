// Instructions a request costs the server, per route, counted by valgrind's callgrind instead of
// timed: the count does not change with the machine's speed, so a difference of 1 % shows in one
// run where requests/s needs many. The server (bench/server.ts, the same app as `npm run bench`)
// runs under callgrind with V8 kept single-threaded and its garbage collection on a predictable
// schedule; autocannon sends each route a fixed number of requests while the counters run, and
// they are zeroed between routes. Counts only user-space instructions: the kernel's share of a
// request (the socket calls) is not in them, so a ratio of counts is further from 1 than the
// ratio of requests/s.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchHeaders, selectRoutes } from './app.js';
import { fire } from './load.js';
import { epilogue, preamble, repo, run, versionOf } from './machine.js';
import { parseOptions } from './options.js';
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

async function main(): Promise<number> {
  const { read, flags } = parseOptions({
    requests: { type: 'string' },
    'warmup-requests': { type: 'string' },
    routes: { type: 'string' },
    'by-function': { type: 'boolean', default: false },
  });
  const byFunction = flags['by-function'] === true;
  const benchRoutes = selectRoutes(read.text('routes'));
  const requests = Math.round(read.number('requests', 4000, 100));
  const warmup = Math.round(read.number('warmup-requests', 8000, 0));
  const rounds = Math.round(read.number('rounds', 3, 1));
  const connections = Math.round(read.number('connections', 10, 1));
  const valgrind = versionOfCommand('valgrind');
  if (valgrind === undefined || versionOfCommand('callgrind_control') === undefined) {
    console.error('valgrind is needed (Debian: apt-get install valgrind)');
    return 1;
  }
  const started = await preamble('vouch: instructions per request, counted by callgrind', ['src'], {
    settings: `${rounds} rounds × ${requests} requests a route after ${warmup} each to warm up, ${connections} connections; node ${PREDICTABLE.join(' ')}`,
    versions: `fastify ${versionOf('fastify') ?? '?'}, valgrind ${valgrind}`,
  });

  // With --by-function, the last round's counts are also dumped per route with instruction
  // addresses, and V8 names its generated code in /tmp/perf-<pid>.map to attribute them.
  const dumps = byFunction ? mkdtempSync(join(tmpdir(), 'vouch-callgrind-')) : undefined;
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      ...(dumps === undefined
        ? ['--callgrind-out-file=/dev/null']
        : ['--dump-instr=yes', `--callgrind-out-file=${join(dumps, 'callgrind.out')}`]),
      process.execPath,
      ...PREDICTABLE,
      ...(byFunction ? ['--perf-basic-prof'] : []),
      '--import',
      'tsx',
      'bench/server.ts',
    ],
    { cwd: repo, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const pid = String(child.pid);
  const perfMapPath = `/tmp/perf-${pid}.map`;
  // Per route of the last round: how much of the perf map had been written at its dump.
  const mapLengths = new Map<string, number>();
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => {
      reject(new Error(`the server under valgrind exited (${code})`));
    });
    child.stdout.on('data', (chunk: Buffer) => {
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(chunk.toString());
      if (match !== null) resolve(Number(match[1]));
    });
  });
  const control = (...args: string[]) =>
    execFileSync('callgrind_control', [...args, pid], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  const settings = { connections, pipelining: 1 };
  const shot = (path: string) => ({ path, headers: benchHeaders });

  try {
    for (const route of benchRoutes) {
      process.stdout.write(`warm-up   ${route.path}\n`);
      await fire(port, shot(route.path), { requests: warmup }, settings);
    }
    const counts = new Map<string, number[]>(benchRoutes.map((route) => [route.path, []]));
    for (let round = 1; round <= rounds; round++) {
      for (const route of benchRoutes) {
        control('--zero');
        await fire(port, shot(route.path), { requests }, settings);
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

    const baseline = median(counts.get(benchRoutes[0]!.path)!);
    const rows = benchRoutes.map((route) => {
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
          row.path === benchRoutes[0]!.path ? '—' : thousands(row.beyond),
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
        benchRoutes.map((route) => route.path),
        dumps,
        perfMapPath,
        mapLengths,
        requests,
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
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    if (dumps !== undefined) {
      // valgrind writes a last dump as it exits: remove the directory after that.
      if (child.exitCode === null && child.signalCode === null) await exited;
      rmSync(dumps, { recursive: true, force: true });
      rmSync(perfMapPath, { force: true });
    }
  }
}

/**
 * For each route of the last round, the functions whose own instructions per request grew
 * most over the baseline's: what the route's extra work is made of.
 */
function printByFunction(
  paths: readonly string[],
  dumps: string,
  perfMapPath: string,
  mapLengths: ReadonlyMap<string, number>,
  requests: number,
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
      .slice(0, 12);
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
