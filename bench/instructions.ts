// Instructions a request costs the server, per route, counted by valgrind's callgrind instead of
// timed: the count does not change with the machine's speed, so a difference of 1 % shows in one
// run where requests/s needs many. The server (bench/server.ts, the same app as `npm run bench`)
// runs under callgrind with V8 kept single-threaded and its garbage collection on a predictable
// schedule; autocannon sends each route a fixed number of requests while the counters run, and
// they are zeroed between routes. Counts only user-space instructions: the kernel's share of a
// request (the socket calls) is not in them, so a ratio of counts is further from 1 than the
// ratio of requests/s.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { benchHeaders, selectRoutes } from './app.js';
import { fire } from './load.js';
import { epilogue, preamble, repo, run, versionOf } from './machine.js';
import { parseOptions } from './options.js';
import { countedInstructions, PREDICTABLE } from './callgrind.js';
import { markdownTable, median } from './report.js';

/** What `<command> --version` prints, or `undefined` when the command is missing or fails. */
function versionOfCommand(command: string): string | undefined {
  const result = spawnSync(command, ['--version'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

async function main(): Promise<number> {
  const { read } = parseOptions({
    requests: { type: 'string' },
    'warmup-requests': { type: 'string' },
    routes: { type: 'string' },
  });
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

  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--callgrind-out-file=/dev/null',
      process.execPath,
      ...PREDICTABLE,
      '--import',
      'tsx',
      'bench/server.ts',
    ],
    { cwd: repo, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const pid = String(child.pid);
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
        console.log(
          `round ${round}/${rounds}  ${route.path.padEnd(22)} ${Math.round(perRequest).toLocaleString('en-US')} instructions/request`,
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
    const integer = (n: number) => Math.round(n).toLocaleString('en-US');
    console.log('');
    console.log(
      markdownTable([
        ['route', 'instructions/request', 'min–max', 'beyond baseline', 'ratio'],
        ...rows.map((row) => [
          row.path,
          integer(row.median),
          `${integer(row.min)}–${integer(row.max)}`,
          row.path === benchRoutes[0]!.path ? '—' : integer(row.beyond),
          `${row.ratio.toFixed(3)}×`,
        ]),
      ]),
    );
    console.log('');
    console.log(
      'ratio     the baseline’s instructions over the route’s; user space only (the kernel’s socket work is not counted)',
    );
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
    child.kill('SIGTERM');
  }
}

run(main);
