import type { MemorySample } from './service-process.js';

/** The service's memory after a full collection, once `requests` requests had been served. */
export interface MemoryPoint extends MemorySample {
  readonly requests: number;
}

/**
 * The most the heap kept after a full collection may grow over a million requests, by its trend
 * and from first to last sample, for memory to count as flat: 2 MiB, about two bytes a request.
 * A leak of one small object per request is a hundred times that.
 */
export const FLAT_LIMIT_BYTES_PER_MILLION = 2 * 2 ** 20;

/** What the samples say. */
export interface MemoryVerdict {
  readonly firstHeap: number;
  readonly lastHeap: number;
  /** Last heap minus first heap, bytes. */
  readonly heapGrowth: number;
  /** The least-squares slope of the heap over the requests served, in bytes per million. */
  readonly bytesPerMillion: number;
  readonly firstRss: number;
  readonly lastRss: number;
  readonly flat: boolean;
}

/** The least-squares slope of `y` over `x`. */
export function slope(points: readonly { x: number; y: number }[]): number {
  const n = points.length;
  const meanX = points.reduce((sum, p) => sum + p.x, 0) / n;
  const meanY = points.reduce((sum, p) => sum + p.y, 0) / n;
  let numerator = 0;
  let denominator = 0;
  for (const { x, y } of points) {
    numerator += (x - meanX) * (y - meanY);
    denominator += (x - meanX) ** 2;
  }
  return denominator === 0 ? 0 : numerator / denominator;
}

/**
 * Judges samples taken across a run (at least two, in order): flat when neither the trend nor the
 * growth from the first sample to the last exceeds {@link FLAT_LIMIT_BYTES_PER_MILLION} scaled to
 * the requests served (and never less than the limit itself, for short runs).
 */
export function memoryVerdict(points: readonly MemoryPoint[]): MemoryVerdict {
  if (points.length < 2) throw new RangeError('memoryVerdict needs at least two samples');
  const first = points[0]!;
  const last = points[points.length - 1]!;
  const bytesPerMillion =
    slope(points.map((point) => ({ x: point.requests, y: point.heapUsed }))) * 1_000_000;
  const heapGrowth = last.heapUsed - first.heapUsed;
  const served = last.requests - first.requests;
  const allowedGrowth = Math.max(1, served / 1_000_000) * FLAT_LIMIT_BYTES_PER_MILLION;
  return {
    firstHeap: first.heapUsed,
    lastHeap: last.heapUsed,
    heapGrowth,
    bytesPerMillion,
    firstRss: first.rss,
    lastRss: last.rss,
    flat: bytesPerMillion <= FLAT_LIMIT_BYTES_PER_MILLION && heapGrowth <= allowedGrowth,
  };
}
