import { ABSENT, AMBIGUOUS, type Extraction } from '../core/outcome.js';
import type { RequestView } from '../core/request.js';

/**
 * Reads one header that must appear at most once. Node's parser keeps only the first
 * `Authorization` line and joins repeated custom headers with ", ", so the raw lines are counted:
 * a repeated credential is ambiguous, and ambiguity never picks a winner.
 *
 * @param lowerName - the header name in lower case.
 */
export function singleHeader(request: RequestView, lowerName: string): Extraction<string> {
  const value = request.headers[lowerName];
  if (value === undefined) return ABSENT;
  if (typeof value !== 'string') return value.length > 1 ? AMBIGUOUS : fromString(value[0]);
  const raw = request.raw?.rawHeaders;
  if (raw !== undefined && countLines(raw, lowerName) > 1) return AMBIGUOUS;
  return fromString(value);
}

function fromString(value: string | undefined): Extraction<string> {
  return value === undefined || value === '' ? ABSENT : { state: 'present', credential: value };
}

function countLines(raw: readonly string[], lowerName: string): number {
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i];
    if (name?.length === lowerName.length && name.toLowerCase() === lowerName) count++;
  }
  return count;
}
