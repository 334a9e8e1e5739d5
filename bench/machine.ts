// What the benchmarks share around their timing: options, the facts printed before a run,
// pinning server and load generator apart, and the results file.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { generatorOf, type Generator } from './load.js';
import { wrkVersion } from './wrk.js';

/**
 * The load options of the load benchmarks, in words too, the load generator's name and version,
 * and a reader of the `extra` options.
 */
export function parseOptions(extra: NonNullable<ParseArgsConfig['options']> = {}) {
  const names = ['duration', 'rounds', 'warmup', 'connections', 'pipelining', 'generator'];
  const strings = Object.fromEntries(names.map((name) => [name, { type: 'string' as const }]));
  const flags = parseArgs({ options: { ...strings, ...extra } }).values as Record<string, string>;
  const number = (name: string, fallback: number, min: number) => {
    const value = Number(flags[name] ?? fallback);
    if (!Number.isFinite(value) || value < min) throw new Error(`--${name}: a number ≥ ${min}`);
    return value;
  };
  const load = {
    seconds: number('duration', 1, 1),
    rounds: Math.round(number('rounds', 20, 1)),
    warmup: number('warmup', 2, 0),
    connections: Math.round(number('connections', 50, 1)),
    pipelining: Math.round(number('pipelining', 1, 1)),
  };
  const chosen = flags.generator;
  if (chosen !== undefined && chosen !== 'wrk' && chosen !== 'autocannon') {
    throw new Error('--generator: wrk or autocannon');
  }
  if (chosen === 'wrk' && wrkVersion() === undefined) throw new Error('wrk is not on PATH');
  const generator: Generator = generatorOf({ ...load, generator: chosen });
  if (generator === 'wrk' && !(Number.isInteger(load.seconds) && Number.isInteger(load.warmup))) {
    throw new Error('wrk runs whole seconds: --duration and --warmup');
  }
  const settings =
    `${load.rounds} rounds × ${load.seconds} s a run, warm-up ${load.warmup} s, ` +
    `${load.connections} connections, pipelining ${load.pipelining}`;
  return {
    load: { ...load, generator },
    settings,
    generator: generatorText(generator),
    number,
    text: (name: string): string | undefined => flags[name],
  };
}

/** The load generator in words: wrk's version and threads, or why autocannon. */
function generatorText(generator: Generator): string {
  if (generator === 'wrk') return `wrk ${wrkVersion()!}, a thread per CPU it is pinned to`;
  const autocannon = `autocannon ${versionOf('autocannon')}, in this process`;
  return wrkVersion() === undefined ? `${autocannon} (wrk is not on PATH)` : autocannon;
}

const versionOf = (name: string) => {
  const file = new URL(`../node_modules/${name}/package.json`, import.meta.url);
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
};

/**
 * Pins the servers to the last CPU and this process, the load generator, to the others, so that
 * they never share a core (needs `taskset` and two CPUs). Returns what was done.
 */
export function pinApart(pids: readonly number[]): string {
  const count = availableParallelism();
  const [server, load] = [String(count - 1), count === 2 ? '0' : `0-${count - 2}`];
  try {
    if (count < 2) throw new Error('one CPU');
    for (const pid of pids) execFileSync('taskset', ['-a', '-p', '-c', server, String(pid)]);
    execFileSync('taskset', ['-a', '-p', '-c', load, String(process.pid)]);
  } catch {
    return 'not pinned (needs two CPUs and taskset)';
  }
  return `servers on CPU ${server}, the load generator on CPU ${load}`;
}

/**
 * Prints the title, date, machine, commit (noting changes to the code), versions, settings and
 * the load generator, when there is one.
 */
export function preamble(
  title: string,
  packages: readonly string[],
  settings: string,
  generator?: string,
) {
  const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).trim();
  const changed = git('status', '--porcelain', '--', 'src', 'service') === '' ? '' : ' + changes';
  const started = {
    date: new Date().toISOString(),
    node: process.version,
    cpu: `${cpus()[0]?.model ?? 'unknown'} × ${cpus().length}`,
    commit: `${git('rev-parse', '--short', 'HEAD')}${changed}`,
    load: `${loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')} (1, 5, 15 min)`,
    versions: packages.map((name) => `${name} ${versionOf(name)}`).join(', '),
    settings,
    ...(generator !== undefined && { generator }),
  };
  console.log(title);
  for (const [label, text] of Object.entries(started)) console.log(`${label.padEnd(9)} ${text}`);
  return started;
}

/** Writes the run, every timed run included, to bench/results/ (git-ignored). */
export function save(name: string, started: { date: string }, report: object): void {
  const dir = new URL('./results/', import.meta.url);
  mkdirSync(dir, { recursive: true });
  const file = new URL(`${name}-${started.date.replace(/[:.]/g, '-')}.json`, dir);
  writeFileSync(file, `${JSON.stringify({ ...started, ...report }, null, 2)}\n`);
  console.log(`results   ${file.pathname}`);
}
