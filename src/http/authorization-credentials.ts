import { ABSENT, REJECTED, type Extraction } from '../core/outcome.js';
import type { RequestView } from '../core/request.js';
import { startsWithFolded } from '../internal/ascii.js';
import { singleHeaderValue } from '../internal/single-header.js';

const SPACE = 0x20;

/**
 * The credentials of a single `Authorization` header in the given scheme: absent when there is no
 * header, another scheme or nothing after the scheme word; ambiguous when the header is repeated;
 * rejected when the scheme word is followed by other white space than spaces (a tab, say) or the
 * rest is longer than `maxLength`. Finds the credentials `parseAuthorization` followed by `isScheme`
 * would, in one pass and without splitting the header.
 *
 * @param schemeLower - the expected scheme word in lower case, letters only (`bearer`, `basic`).
 * @param spelling - the same word as clients usually spell it (`Bearer`, `Basic`): a header that
 *   opens with it is recognised by one native comparison instead of a fold.
 */
export function authorizationCredentials(
  request: RequestView,
  schemeLower: string,
  maxLength: number,
  spelling: string = schemeLower,
): Extraction<string> {
  const value = singleHeaderValue(request, 'authorization', 'Authorization');
  if (typeof value !== 'string') return value;
  const start = credentialsStart(value, schemeLower, spelling);
  if (start === MALFORMED) return REJECTED;
  if (start === -1 || start === value.length) return ABSENT;
  if (value.length - start > maxLength) return REJECTED;
  return { state: 'present', credential: value.slice(start) };
}

// The scheme word followed by white space that does not separate it (a tab, a no-break space).
const MALFORMED = -2;

/**
 * Where the credentials begin when `value` opens with the scheme word (ASCII letters folded)
 * followed by one or more spaces or the end; -1 for another scheme (a longer token such as
 * `Bearerx`, or a word such as `Bearer:`); {@link MALFORMED} when the word is followed by other
 * white space (a tab): this scheme's credentials, badly sent.
 */
function credentialsStart(value: string, schemeLower: string, spelling: string): number {
  const length = schemeLower.length;
  // Folding costs a few ns a character; the usual spelling matches natively at once.
  if (!value.startsWith(spelling) && !startsWithFolded(value, schemeLower)) return -1;
  if (length === value.length) return length;
  const next = value.charCodeAt(length);
  if (next !== SPACE) return String.fromCharCode(next).trim() === '' ? MALFORMED : -1;
  let start = length + 1;
  while (start < value.length && value.charCodeAt(start) === SPACE) start++;
  return start;
}
