import {
  ABSENT,
  AMBIGUOUS,
  type Absent,
  type Ambiguous,
  type Extraction,
} from '../core/outcome.js';
import type { RequestView } from '../core/request.js';
import { startsWithFolded } from './ascii.js';

/**
 * Reads one header that must appear at most once. Node's parser keeps only the first
 * `Authorization` line and joins repeated custom headers with ", ", so the raw lines are counted:
 * a repeated credential is ambiguous, and ambiguity never picks a winner.
 *
 * @param lowerName - the header name in lower case.
 */
export function singleHeader(request: RequestView, lowerName: string): Extraction<string> {
  const value = singleHeaderValue(request, lowerName);
  return typeof value === 'string' ? { state: 'present', credential: value } : value;
}

/** {@link singleHeader}, with the value itself when present (nothing allocated). */
export function singleHeaderValue(
  request: RequestView,
  lowerName: string,
): string | Absent | Ambiguous {
  const value = request.headers[lowerName];
  if (value === undefined) return ABSENT;
  if (typeof value !== 'string') return value.length > 1 ? AMBIGUOUS : nonEmpty(value[0]);
  const raw = request.raw?.rawHeaders;
  if (raw !== undefined && countLines(raw, lowerName) > 1) return AMBIGUOUS;
  return nonEmpty(value);
}

function nonEmpty(value: string | undefined): string | Absent {
  return value === undefined || value === '' ? ABSENT : value;
}

function countLines(raw: readonly string[], lowerName: string): number {
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i];
    if (name?.length === lowerName.length && startsWithFolded(name, lowerName)) count++;
  }
  return count;
}
