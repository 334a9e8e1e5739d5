// Times the onRequest hook of each route inside the server: from the hook's call to its `done()`.
// All routes run under one mixed load, so a change of the machine's speed slows every hook
// alike, and the figures can be compared with each other to a few nanoseconds.
import type {
  FastifyInstance,
  onRequestHookHandler,
  RouteOptions,
  HookHandlerDoneFunction,
} from 'fastify';
import { median, medianInterval } from './report.js';

/** What the hook of one route cost: how many requests went through it and their total time. */
export interface HookTime {
  readonly requests: number;
  readonly nanoseconds: number;
}

/** The hooks of a Fastify app, timed. */
export interface HookTimer {
  /** The times since the last call (or since the start), by route path; then starts afresh. */
  take(): Record<string, HookTime>;
}

/**
 * Wraps the first `onRequest` hook (a callback hook) of every `GET` route declared after this call, so that its
 * time until `done()` is added to its route's total; requests it answers itself (a 401) are not
 * counted. Call it after registering vouch (whose `onRoute` hook puts its own first) and before
 * declaring the routes. The wrapper adds the same small cost to every route.
 */
export function timeHooks(app: FastifyInstance): HookTimer {
  const totals = new Map<string, { requests: number; nanoseconds: number }>();
  app.addHook('onRoute', (route: RouteOptions) => {
    if (route.method !== 'GET') return;
    const hooks = [route.onRequest ?? []].flat();
    const first = hooks[0];
    if (first === undefined) return;
    const total = { requests: 0, nanoseconds: 0 };
    totals.set(route.url, total);
    const timed: onRequestHookHandler = function (request, reply, done) {
      const started = performance.now();
      const timedDone = ((error?: Error) => {
        total.nanoseconds += (performance.now() - started) * 1e6;
        total.requests++;
        done(error);
      }) as HookHandlerDoneFunction;
      (first as onRequestHookHandler).call(this, request, reply, timedDone);
    };
    route.onRequest = [timed, ...hooks.slice(1)] as onRequestHookHandler[];
  });
  return {
    take() {
      const taken: Record<string, HookTime> = {};
      for (const [path, total] of totals) {
        taken[path] = { ...total };
        total.requests = 0;
        total.nanoseconds = 0;
      }
      return taken;
    },
  };
}

/** One round of a mixed load: each route's hook time and the server's CPU time per request. */
export interface HookRound {
  readonly times: Readonly<Record<string, HookTime>>;
  /** The server's CPU time per request over the whole mixed load, in ns. */
  readonly serverNanosPerRequest: number;
}

/** A route's hook over all rounds. */
export interface HookSummary {
  readonly path: string;
  /** Median over rounds of the hook's mean time per request, ns. */
  readonly nanoseconds: number;
  /** Median over rounds of the hook's time less the floor's (the empty hook) in that round, ns. */
  readonly beyondFloor: number;
  /** A 95 % confidence interval of {@link beyondFloor}. */
  readonly beyondFloorInterval: readonly [number, number];
  /** {@link beyondFloor} over the median server CPU time per request. */
  readonly shareOfRequest: number;
}

/**
 * Summarises the rounds of a mixed load: for each timed route, its hook time and what it costs
 * beyond the empty hook `floorPath`, compared within each round (the same load, at the same
 * time) and then over rounds by the median.
 */
export function summariseHooks(rounds: readonly HookRound[], floorPath: string): HookSummary[] {
  const perRequest = (time: HookTime | undefined) =>
    time === undefined || time.requests === 0 ? Number.NaN : time.nanoseconds / time.requests;
  const paths = Object.keys(rounds[0]?.times ?? {});
  if (!paths.includes(floorPath)) throw new Error(`no hook timed on ${floorPath}`);
  const server = median(rounds.map((round) => round.serverNanosPerRequest));
  return paths.map((path) => {
    const own = rounds.map((round) => perRequest(round.times[path]));
    const beyond = rounds.map(
      (round) => perRequest(round.times[path]) - perRequest(round.times[floorPath]),
    );
    if (own.some(Number.isNaN)) throw new Error(`${path}: a round timed no request of its hook`);
    const beyondFloor = median(beyond);
    return {
      path,
      nanoseconds: median(own),
      beyondFloor,
      beyondFloorInterval: medianInterval(beyond),
      shareOfRequest: beyondFloor / server,
    };
  });
}
