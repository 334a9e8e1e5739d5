// Waiting in tests: for a condition to hold, for a port nothing listens on, or for a process to
// start.
import assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * How long a program a test starts (node under tsx, with coverage) may take to listen. Only a
 * hang should come near it: with other test files running beside it on a busy 2-core machine,
 * starting has taken over 20 s.
 */
export const STARTUP_MS = 60_000;

/** Waits until `condition` holds, failing the test after `ms` milliseconds (default 5000). */
export async function until(condition: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`not within ${ms} ms: ${what}`);
    await sleep(5);
  }
}

/** A loopback port nothing listens on right now (taken and released by the system). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => {
        resolve(port);
      });
    });
  });
}
