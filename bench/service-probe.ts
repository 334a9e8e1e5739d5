// Loaded into the illustrated service with `--import` by bench/service-process.ts, so that the
// real service (service/server.ts, unchanged) can be asked over IPC for its own figures:
//   ← { type: 'cpu' }     → { type: 'cpu', user, system }          CPU time so far, in µs
//   ← { type: 'memory' }  → { type: 'memory', heapUsed, rss, … }   after a full collection
// Without an IPC channel it does nothing.

interface ProbeMessage {
  readonly type: 'cpu' | 'memory';
}

if (process.send !== undefined) {
  process.on('message', (message: ProbeMessage) => {
    if (message.type === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.send?.({ type: 'cpu', user, system });
    } else {
      // Collect first: the heap still in use after a full collection is what the process keeps.
      // --expose-gc makes gc() available; without it the figures include garbage.
      const gc = (globalThis as { gc?: () => void }).gc;
      gc?.();
      process.send?.({ type: 'memory', collected: gc !== undefined, ...process.memoryUsage() });
    }
  });
  // The IPC channel must not keep the service alive once it shuts down; and a service whose
  // benchmark died is stopped the way SIGTERM stops it, not left listening.
  process.channel?.unref();
  process.once('disconnect', () => {
    process.kill(process.pid, 'SIGTERM');
  });
}
