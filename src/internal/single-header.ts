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
 * Reads one header that must appear at most once, from the header lines as the client sent them
 * (`rawHeaders`) where the adapter has them: a repeated line is ambiguous, and ambiguity never
 * picks a winner. Node's parsed `headers` would hide the repetition (it keeps only the first
 * `Authorization` line and joins repeated custom headers with ", "), and reading it makes Node
 * build that object for the whole request. Without raw lines, the parsed value is read and only
 * a list of several lines is ambiguous.
 *
 * @param lowerName - the header name in lower case.
 * @param spelling - the name as clients usually spell it (`Authorization`, the configured
 *   `X-API-Key`): lines named exactly so, or in lower case, are found without folding; any
 *   other spelling is still found.
 */
export function singleHeader(
  request: RequestView,
  lowerName: string,
  spelling: string = lowerName,
): Extraction<string> {
  const value = singleHeaderValue(request, lowerName, spelling);
  return typeof value === 'string' ? { state: 'present', credential: value } : value;
}

/** {@link singleHeader}, with the value itself when present (nothing allocated). */
export function singleHeaderValue(
  request: RequestView,
  lowerName: string,
  spelling: string = lowerName,
): string | Absent | Ambiguous {
  const raw = request.raw?.rawHeaders;
  if (raw !== undefined) return lineValue(raw, lowerName, spelling);
  const value = request.headers[lowerName];
  if (value === undefined) return ABSENT;
  if (typeof value !== 'string') return value.length > 1 ? AMBIGUOUS : nonEmpty(value[0]);
  return nonEmpty(value);
}

function nonEmpty(value: string | undefined): string | Absent {
  return value === undefined || value === '' ? ABSENT : value;
}

/** The value of the one line named `lowerName` (names compared with ASCII letters folded). */
function lineValue(
  raw: readonly string[],
  lowerName: string,
  spelling: string,
): string | Absent | Ambiguous {
  let found: string | undefined;
  const length = lowerName.length;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i];
    if (name?.length !== length) continue;
    // The usual spellings match as they are; only others are folded.
    if (name === lowerName || name === spelling || startsWithFolded(name, lowerName)) {
      // An empty first line still counts: a second line makes the header ambiguous.
      if (found !== undefined) return AMBIGUOUS;
      found = raw[i + 1] ?? '';
    }
  }
  return nonEmpty(found);
}
