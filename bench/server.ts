// The benchmarked server, run in its own process by bench/auth-overhead.ts so that it does not
// share an event loop (or a core, when there are two) with autocannon. It listens on a free
// loopback port and talks to its parent over the IPC channel:
//   → { type: 'listening', port }        once ready
//   ← { type: 'cpu' }  → { type: 'cpu', user, system }   its own CPU time, in microseconds
//   ← { type: 'hooks' } → { type: 'hooks', times }  with BENCH_TIME_HOOKS=1: each route's hook
//                                        time since the last ask (bench/hook-timer.ts)
//   ← { type: 'close' }                  closes the app and exits (so --cpu-prof is written)
// Run alone (no IPC) it prints the port and serves until SIGINT/SIGTERM.
import { buildBenchApp } from './app.js';

interface ParentMessage {
  readonly type: 'cpu' | 'hooks' | 'close';
}

const { app, hooks } = await buildBenchApp({ timeHooks: process.env.BENCH_TIME_HOOKS === '1' });
const address = await app.listen({ host: '127.0.0.1', port: 0 });
const port = Number(new URL(address).port);

async function shutdown(): Promise<never> {
  await app.close();
  process.exit(0);
}

if (process.send === undefined) {
  console.log(`bench server listening on ${address}`);
} else {
  process.send({ type: 'listening', port });
  process.on('message', (message: ParentMessage) => {
    if (message.type === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.send?.({ type: 'cpu', user, system });
    } else if (message.type === 'hooks') {
      process.send?.({ type: 'hooks', times: hooks?.take() ?? {} });
    } else {
      void shutdown();
    }
  });
  // The parent died without saying goodbye: do not linger.
  process.on('disconnect', () => void shutdown());
}
process.once('SIGINT', () => void shutdown());
process.once('SIGTERM', () => void shutdown());
