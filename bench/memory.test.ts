import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FLAT_LIMIT_BYTES_PER_MILLION as LIMIT, memoryVerdict } from './memory.js';

const MiB = 2 ** 20;
/** Eleven samples a hundred thousand requests apart: a million requests. */
const points = (heap: (requests: number) => number, count = 11) =>
  Array.from({ length: count }, (_, i) => {
    const requests = i * 100_000;
    return { requests, heapUsed: heap(requests), rss: 4 * heap(requests) };
  });

describe('memoryVerdict', () => {
  it('calls a heap that only wobbles, or grows by less than the limit, flat', () => {
    assert.equal(memoryVerdict(points((r) => 20 * MiB + ((r / 1e5) % 2) * 300_000)).flat, true);
    assert.equal(memoryVerdict(points((r) => 20 * MiB + (r / 1e6) * (LIMIT - 1))).flat, true);
  });

  it('catches a leak of 100 bytes a request, and a heap that peaks or jumps at the end', () => {
    assert.equal(memoryVerdict(points((r) => 20 * MiB + 100 * r)).flat, false);
    assert.equal(memoryVerdict(points((r) => (r === 500_000 ? 30 : 20) * MiB)).flat, false);
    const jump = memoryVerdict(points((r) => (r === 1_000_000 ? 30 : 20) * MiB));
    assert.deepEqual([jump.flat, jump.last.heapUsed - jump.first.heapUsed], [false, 10 * MiB]);
  });

  it('allows no less than the limit to a short run, and needs two samples', () => {
    const short = [0, 1000].map((requests) => ({ requests, heapUsed: MiB + requests, rss: 0 }));
    assert.equal(memoryVerdict(short).flat, true);
    assert.throws(() => memoryVerdict(short.slice(1)), RangeError);
  });
});
