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
 * The headers whose repeated lines Node's parser drops, keeping the first (unless the server was
 * created with `joinDuplicateHeaders`, when it joins them with ", "): only the raw lines show a
 * repetition. Node's `message.headers` documentation gives the list.
 */
export const FIRST_LINE_KEPT: ReadonlySet<string> = new Set([
  'age',
  'authorization',
  'content-length',
  'content-type',
  'etag',
  'expires',
  'from',
  'host',
  'if-modified-since',
  'if-unmodified-since',
  'last-modified',
  'location',
  'max-forwards',
  'proxy-authorization',
  'referer',
  'retry-after',
  'server',
  'user-agent',
]);

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
  if (raw !== undefined && mayRepeat(lowerName, value) && countLines(raw, lowerName) > 1) {
    return AMBIGUOUS;
  }
  return nonEmpty(value);
}

/**
 * Whether the raw lines must be counted. Node joins the repeated lines of every header it does
 * not drop into one value, with "; " for `cookie` and ", " for the others (RFC 9110 §5.3), even
 * when a line is empty: a joined value without that separator came from a single line.
 */
function mayRepeat(lowerName: string, value: string): boolean {
  if (lowerName === 'cookie') return value.includes(';');
  return FIRST_LINE_KEPT.has(lowerName) || value.includes(',');
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
