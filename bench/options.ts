import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { LoadClient } from './load.js';

/** The options every load benchmark takes. */
export interface LoadOptions {
  /** Seconds per route per round. */
  readonly duration: number;
  readonly rounds: number;
  /** Seconds of warm-up per route. */
  readonly warmup: number;
  readonly connections: number;
  readonly pipelining: number;
  /** The load generator of timed runs. */
  readonly client: LoadClient;
  /** Exit 1 when a target is missed. */
  readonly strict: boolean;
}

/** Reads numbers and strings given as flags, or as BENCH_* environment variables. */
export interface OptionReader {
  /** A number ≥ `min`; `--memory-requests` is also `BENCH_MEMORY_REQUESTS`. */
  number(name: string, fallback: number, min: number): number;
  /** A string flag, or its environment variable. */
  text(name: string): string | undefined;
}

/**
 * Parses the command line: the shared load options plus `extra` ones. A flag wins over its
 * `BENCH_*` environment variable, which wins over the default.
 */
export function parseOptions(extra: NonNullable<ParseArgsConfig['options']>): {
  readonly load: LoadOptions;
  readonly read: OptionReader;
  readonly flags: Record<string, unknown>;
} {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string' },
      rounds: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      pipelining: { type: 'string' },
      client: { type: 'string' },
      strict: { type: 'boolean', default: false },
      ...extra,
    },
  });
  const flags = values as Record<string, unknown>;
  const env = (name: string) => process.env[`BENCH_${name.toUpperCase().replace(/-/g, '_')}`];
  const read: OptionReader = {
    number(name, fallback, min) {
      const raw = flags[name] ?? env(name);
      const value = raw === undefined ? fallback : Number(raw);
      if (!Number.isFinite(value) || value < min) throw new Error(`--${name}: a number ≥ ${min}`);
      return value;
    },
    text(name) {
      const raw = flags[name] ?? env(name);
      return typeof raw === 'string' ? raw : undefined;
    },
  };
  const client = read.text('client') ?? 'autocannon';
  if (client !== 'autocannon' && client !== 'wrk') throw new Error('--client: autocannon or wrk');
  const load = {
    duration: read.number('duration', 1, 1),
    rounds: Math.round(read.number('rounds', 30, 1)),
    warmup: read.number('warmup', 3, 0),
    connections: Math.round(read.number('connections', 50, 1)),
    pipelining: Math.round(read.number('pipelining', 1, 1)),
    client,
    strict: flags.strict === true || env('strict') === '1',
  } as const;
  if (load.client === 'wrk' && load.pipelining !== 1) {
    throw new Error('--client wrk: --pipelining 1 only (wrk sends one request at a time)');
  }
  return { load, read, flags };
}

/**
 * The routes named in a `--routes /a,/b` option, in the order of `routes`, with the first (the
 * baseline, which every figure is relative to) always kept; every route when none are named.
 *
 * @throws Error naming any path that is not one of `routes`.
 */
export function selectFrom<R extends { readonly path: string }>(
  routes: readonly R[],
  option: string | undefined,
): readonly R[] {
  const wanted = option?.split(',');
  const unknown = wanted?.filter((path) => !routes.some((route) => route.path === path));
  if (unknown !== undefined && unknown.length > 0) {
    throw new Error(`--routes: no route ${unknown.join(', ')}`);
  }
  return routes.filter(
    (route, i) => i === 0 || wanted === undefined || wanted.includes(route.path),
  );
}
