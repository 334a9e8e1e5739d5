// Reading a value a request must carry at most once (a header line, a query parameter, a
// cookie): a repeated one is ambiguous, and ambiguity never picks a winner.
import {
  ABSENT,
  AMBIGUOUS,
  type Absent,
  type Ambiguous,
  type Extraction,
} from '../core/outcome.js';
import type { HeaderMap, RequestView } from '../core/request.js';

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

/**
 * Reads one query parameter from a request target (`/path?a=1`). A parameter given twice is
 * ambiguous; an empty one is absent. Decoding follows the URL standard (`+` is a space, invalid
 * percent sequences stay as they are), so it never throws.
 */
export function queryParam(url: string, name: string): Extraction<string> {
  const start = url.indexOf('?');
  if (start === -1) return ABSENT;
  const end = url.indexOf('#', start);
  const params = new URLSearchParams(end === -1 ? url.slice(start + 1) : url.slice(start + 1, end));
  const values = params.getAll(name);
  if (values.length > 1) return AMBIGUOUS;
  const value = values[0];
  return value === undefined || value === '' ? ABSENT : { state: 'present', credential: value };
}

/**
 * Reads one cookie from the `Cookie` header(s). A name sent twice (say, by a cookie planted
 * for another path) is ambiguous rather than first-wins. The value is the credential as sent,
 * like every other credential: never unquoted or percent-decoded, so `%5F` is not `_`.
 */
export function readCookie(headers: HeaderMap, name: string): Extraction<string> {
  const header = headers.cookie;
  if (header === undefined) return ABSENT;
  const text = typeof header === 'string' ? header : header.join('; ');
  // A pair is `name=value` between semicolons, with blanks (as trim() sees them) around either.
  // Rather than splitting the header into pairs, look for the name itself: it is an HTTP token,
  // so it holds no `;`, `=` or blank, and an occurrence is the pair's name exactly when only
  // blanks stand between it and the pair's start and between it and the pair's first `=`.
  let found: string | undefined;
  let count = 0;
  const after = name.length;
  for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + 1)) {
    if (!blank(text, text.lastIndexOf(';', at - 1) + 1, at)) continue;
    const eq = text.indexOf('=', at + after);
    if (eq === -1) break;
    let end = text.indexOf(';', at + after);
    if (end !== -1 && end < eq) continue;
    if (!blank(text, at + after, eq)) continue;
    if (end === -1) end = text.length;
    count++;
    found = text.slice(eq + 1, end).trim();
  }
  if (count > 1) return AMBIGUOUS;
  if (found === undefined || found === '') return ABSENT;
  return { state: 'present', credential: found };
}

/** Whether `text` holds only blanks from `start` to `end`, as `trim()` judges them. */
function blank(text: string, start: number, end: number): boolean {
  return start >= end || text.slice(start, end).trim() === '';
}

const UPPER_A = 0x41;
const UPPER_Z = 0x5a;

/**
 * Whether `value` begins with `lower` when ASCII letters are folded to lower case, and only
 * those: HTTP scheme words and header names are ASCII tokens, and Unicode case folding (U+212A
 * KELVIN SIGN → "k") must not make another word match. Allocates nothing.
 *
 * @param lower - the expected text, already in lower case.
 */
export function startsWithFolded(value: string, lower: string): boolean {
  if (value.length < lower.length) return false;
  for (let i = 0; i < lower.length; i++) {
    let c = value.charCodeAt(i);
    if (c >= UPPER_A && c <= UPPER_Z) c += 0x20;
    if (c !== lower.charCodeAt(i)) return false;
  }
  return true;
}
