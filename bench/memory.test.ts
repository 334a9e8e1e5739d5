import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FLAT_LIMIT_BYTES_PER_MILLION, memoryVerdict, slope, type MemoryPoint } from './memory.js';

const MiB = 2 ** 20;

function points(heap: (requests: number) => number, count = 11, step = 100_000): MemoryPoint[] {
  return Array.from({ length: count }, (_, i) => {
    const requests = i * step;
    const heapUsed = heap(requests);
    return {
      requests,
      heapUsed,
      heapTotal: 2 * heapUsed,
      rss: 4 * heapUsed,
      external: 0,
      arrayBuffers: 0,
    };
  });
}

describe('slope', () => {
  it('is the least-squares slope', () => {
    assert.equal(
      slope([
        { x: 0, y: 1 },
        { x: 1, y: 3 },
        { x: 2, y: 5 },
      ]),
      2,
    );
    assert.equal(
      slope([
        { x: 0, y: 1 },
        { x: 1, y: 0 },
        { x: 2, y: 1 },
      ]),
      0,
    );
  });

  it('is 0 when x never changes', () => {
    assert.equal(
      slope([
        { x: 5, y: 1 },
        { x: 5, y: 9 },
      ]),
      0,
    );
  });
});

describe('memoryVerdict', () => {
  it('calls a heap that only wobbles flat', () => {
    const verdict = memoryVerdict(points((r) => 20 * MiB + ((r / 100_000) % 2) * 300_000));
    assert.equal(verdict.flat, true);
    assert.ok(Math.abs(verdict.bytesPerMillion) < FLAT_LIMIT_BYTES_PER_MILLION);
  });

  it('catches a leak of 100 bytes a request', () => {
    const verdict = memoryVerdict(points((r) => 20 * MiB + 100 * r));
    assert.equal(verdict.flat, false);
    assert.equal(Math.round(verdict.bytesPerMillion), 100_000_000);
    assert.equal(verdict.heapGrowth, 100 * 1_000_000);
  });

  it('catches a heap that jumps at the end, even when the trend over all samples is small', () => {
    const verdict = memoryVerdict(points((r) => (r === 1_000_000 ? 30 * MiB : 20 * MiB)));
    assert.equal(verdict.flat, false);
    assert.equal(verdict.heapGrowth, 10 * MiB);
  });

  it('reports the first and last figures', () => {
    const verdict = memoryVerdict(points((r) => 10 * MiB + r));
    assert.equal(verdict.firstHeap, 10 * MiB);
    assert.equal(verdict.lastHeap, 10 * MiB + 1_000_000);
    assert.equal(verdict.firstRss, 40 * MiB);
    assert.equal(verdict.lastRss, 4 * (10 * MiB + 1_000_000));
  });

  it('needs two samples', () => {
    assert.throws(() => memoryVerdict(points(() => MiB, 1)), RangeError);
  });
});
