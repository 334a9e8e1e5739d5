import { ABSENT, REJECTED, type Extraction } from '../core/outcome.js';
import type { RequestView } from '../core/request.js';
import { startsWithFolded } from '../internal/ascii.js';
import { singleHeaderValue } from '../internal/single-header.js';
import { credentialsStart, schemeEnd } from './parse-authorization.js';

/**
 * The credentials of a single `Authorization` header in the given scheme, found as
 * `parseAuthorization` and `isScheme` would find them, without copying the scheme word: absent
 * when there is no header, another scheme or nothing after the scheme word; ambiguous when the
 * header is repeated; rejected when the scheme word is followed by other white space than spaces
 * (a tab, say: this scheme's credentials, badly sent) or the rest is longer than `maxLength`.
 *
 * @param schemeLower - the expected scheme word in lower case, letters only (`bearer`, `basic`).
 */
export function authorizationCredentials(
  request: RequestView,
  schemeLower: string,
  maxLength: number,
): Extraction<string> {
  const value = singleHeaderValue(request, 'authorization', 'Authorization');
  if (typeof value !== 'string') return value;
  // The scheme word, and no longer token (`Bearerx`).
  const end = schemeLower.length;
  if (!startsWithFolded(value, schemeLower) || schemeEnd(value, end) !== end) return ABSENT;
  const start = credentialsStart(value, end);
  if (start === -1) return value.charAt(end).trim() === '' ? REJECTED : ABSENT;
  if (start === value.length) return ABSENT;
  if (value.length - start > maxLength) return REJECTED;
  return { state: 'present', credential: value.slice(start) };
}
