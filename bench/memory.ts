// Whether the service's memory stays flat under load: its heap after full collections, sampled
// as the requests it has served grow.

/** The service's heap and RSS after a full collection, once `requests` had been served. */
export interface MemoryPoint {
  readonly requests: number;
  readonly heapUsed: number;
  readonly rss: number;
}

/**
 * The most the heap kept after a full collection may grow over a million requests for memory to
 * count as flat: 2 MiB, about two bytes a request. A leak of one small object a request is a
 * hundred times that.
 */
export const FLAT_LIMIT_BYTES_PER_MILLION = 2 * 2 ** 20;

/**
 * Judges samples in order (two at least): flat when neither the last nor the highest sample after
 * the first exceeds it by more than the limit, scaled to the requests served (never below it).
 */
export function memoryVerdict(points: readonly MemoryPoint[]) {
  if (points.length < 2) throw new RangeError('memoryVerdict needs at least two samples');
  const [first, last] = [points[0]!, points.at(-1)!];
  const allowed =
    Math.max(1, (last.requests - first.requests) / 1e6) * FLAT_LIMIT_BYTES_PER_MILLION;
  const highest = Math.max(...points.slice(1).map((point) => point.heapUsed));
  return { first, last, flat: Math.max(highest, last.heapUsed) - first.heapUsed <= allowed };
}
