// Facts about the machine and the checkout that every benchmark prints and records, so that a
// figure can be judged by what else was running and what was measured.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const repo = fileURLToPath(new URL('..', import.meta.url));

/** Where runs are written (git-ignored). */
export const resultsDir = fileURLToPath(new URL('./results/', import.meta.url));

/** CPU time spent by the whole machine so far, in µs, from /proc/stat (Linux only). */
export function machineBusyMicros(): number | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
    // cpu user nice system idle iowait irq softirq steal …, in USER_HZ (100 per second).
    const ticks = line.trim().split(/\s+/).slice(1, 9).map(Number);
    if (ticks.length < 8 || ticks.some(Number.isNaN)) return undefined;
    const idle = ticks[3]! + ticks[4]!;
    return (ticks.reduce((sum, tick) => sum + tick, 0) - idle) * 10_000;
  } catch {
    return undefined;
  }
}

/**
 * CPU time of this process's finished children so far (a `wrk` run), in µs, from
 * /proc/self/stat (Linux only; 0 elsewhere): the load generator's cost when it is a child.
 */
export function childrenCpuMicros(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Fields after the command name in parentheses: state (3) … cutime (16), cstime (17).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[13]) + Number(fields[14]);
    return Number.isNaN(ticks) ? 0 : ticks * 10_000;
  } catch {
    return 0;
  }
}

/** How many cores the machine keeps busy over `ms` milliseconds (Linux only). */
export async function busyCores(ms: number): Promise<number | undefined> {
  const before = machineBusyMicros();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = machineBusyMicros();
  return before === undefined || after === undefined ? undefined : (after - before) / (ms * 1000);
}

/**
 * Pins the server under test (every thread) to the last CPU and this process, the load
 * generator, to the others, so that the two never share a core nor move between cores during a
 * run; on the 2-vCPU machine of the recorded figures this narrowed the paired 95 % intervals
 * from about ±4 % to about ±2 %. Linux with `taskset` (util-linux) and two CPUs or more only, and
 * not with `BENCH_PIN=0`. Returns what was done, to be printed.
 */
export function pinApart(serverPid: number): string {
  if (process.env.BENCH_PIN === '0') return 'not pinned (BENCH_PIN=0)';
  const count = availableParallelism();
  if (process.platform !== 'linux' || count < 2) return 'not pinned (needs Linux and 2 CPUs)';
  const server = String(count - 1);
  const load = count === 2 ? '0' : `0-${count - 2}`;
  try {
    execFileSync('taskset', ['-a', '-p', '-c', server, String(serverPid)], { stdio: 'ignore' });
    execFileSync('taskset', ['-a', '-p', '-c', load, String(process.pid)], { stdio: 'ignore' });
  } catch {
    return 'not pinned (taskset failed or is missing)';
  }
  return `server on CPU ${server}, load generator on CPU ${load}`;
}

/** The 1, 5 and 15 minute load averages. */
export const loads = (): number[] => loadavg().map((load) => Number(load.toFixed(2)));

/** A git command's output in the repository, or `undefined` outside a checkout. */
export function git(...args: string[]): string | undefined {
  try {
    return execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

/** The installed version of a package, or `undefined`. */
export function versionOf(name: string): string | undefined {
  try {
    const file = new URL(`../node_modules/${name}/package.json`, import.meta.url);
    return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/** What a run was measured on. */
export interface Machine {
  readonly node: string;
  readonly cpu: string;
  readonly cores: number;
  readonly platform: string;
  readonly loadavgBefore: number[];
}

/** Describes this machine now. */
export function machine(): Machine {
  return {
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    platform: `${process.platform} ${process.arch}`,
    loadavgBefore: loads(),
  };
}

/** The commit measured, and whether the given folders had uncommitted changes. */
export function checkout(...folders: string[]): { commit: string | undefined; dirty: boolean } {
  const commit = git('rev-parse', '--short', 'HEAD');
  const dirty = (git('status', '--porcelain', '--', ...folders) ?? '') !== '';
  return { commit, dirty };
}

/** What {@link preamble} found before a run. */
export interface Preamble {
  readonly date: string;
  readonly machine: Machine;
  readonly commit: string | undefined;
  readonly dirty: boolean;
  readonly busyCoresBefore: number | undefined;
}

/**
 * Prints what every benchmark starts with (its title, date, Node, CPU, the commit and the given
 * facts), then how busy the machine is, with a warning when other processes compete.
 *
 * @param folders - the folders whose uncommitted changes the figures would include.
 */
export async function preamble(
  title: string,
  folders: readonly string[],
  facts: Readonly<Record<string, string>>,
): Promise<Preamble> {
  const date = new Date().toISOString();
  const described = machine();
  const { commit, dirty } = checkout(...folders);
  const line = (label: string, text: string) => {
    console.log(`${label.padEnd(9)} ${text}`);
  };
  console.log(title);
  line('date', date);
  line('node', `${described.node} (${described.platform})`);
  line('cpu', `${described.cpu} × ${described.cores}`);
  line(
    'commit',
    `${commit ?? 'unknown'}${dirty ? ` + uncommitted changes in ${folders.join(', ')}` : ''}`,
  );
  for (const [label, text] of Object.entries(facts)) line(label, text);
  const busy = await busyCores(1000);
  line(
    'load',
    `${described.loadavgBefore.join(' ')} (1, 5, 15 min)` +
      (busy === undefined ? '' : `; ${busy.toFixed(2)} cores busy just before start`),
  );
  if (busy !== undefined && busy > 0.2) {
    line(
      '',
      'warning: other processes are busy; the server and autocannon need a core each, ' +
        'so req/s will vary from round to round',
    );
  }
  return { date, machine: described, commit, dirty, busyCoresBefore: busy };
}

/** Prints how much other processes competed and writes `report` to `results/<name>-<date>.json`. */
export function epilogue(
  name: string,
  started: Preamble,
  otherCores: readonly number[],
  report: Readonly<Record<string, unknown>>,
): string {
  if (otherCores.length > 0) {
    const sorted = [...otherCores].sort((a, b) => a - b);
    const middle = sorted[Math.floor(sorted.length / 2)]!;
    console.log(
      `others    other processes kept ${middle.toFixed(2)} cores busy (median; ` +
        `max ${sorted[sorted.length - 1]!.toFixed(2)}) while routes were timed`,
    );
  }
  const loadavgAfter = loads();
  console.log(`load      ${loadavgAfter.join(' ')} after the run`);
  mkdirSync(resultsDir, { recursive: true });
  const file = `${resultsDir}${name}-${started.date.replace(/[:.]/g, '-')}.json`;
  const full = {
    date: started.date,
    machine: { ...started.machine, busyCoresBefore: started.busyCoresBefore ?? null, loadavgAfter },
    commit: started.commit,
    uncommittedChanges: started.dirty,
    ...report,
  };
  writeFileSync(file, `${JSON.stringify(full, null, 2)}\n`);
  console.log(`results   ${file}`);
  return file;
}

/** Runs a benchmark's main function: its result is the exit code; an error is printed, exit 1. */
export function run(main: () => Promise<number>): void {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
