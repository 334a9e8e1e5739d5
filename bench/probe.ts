// Loaded with `--import` into a benchmarked server (bench/server.ts, or the service unchanged) by
// bench/process.ts, which asks over IPC for the server's own figures:
//   ← { type: 'cpu' }     → { type: 'cpu', user, system }          CPU time so far, in µs
//   ← { type: 'memory' }  → { type: 'memory', heapUsed, rss, … }   after a full collection
if (process.send !== undefined) {
  process.on('message', (message: { readonly type: 'cpu' | 'memory' }) => {
    if (message.type === 'cpu') {
      process.send?.({ type: 'cpu', ...process.cpuUsage() });
    } else {
      // What the heap keeps after a full collection (--expose-gc) is what the process holds.
      (globalThis as { gc?: () => void }).gc?.();
      process.send?.({ type: 'memory', ...process.memoryUsage() });
    }
  });
  // The channel must not keep the server alive; a server whose benchmark died stops as SIGTERM
  // stops it, rather than listening on.
  process.channel?.unref();
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}
