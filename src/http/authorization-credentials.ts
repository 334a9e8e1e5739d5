import { ABSENT, REJECTED, type Extraction } from '../core/outcome.js';
import type { RequestView } from '../core/request.js';
import { singleHeader } from '../internal/single-header.js';
import { isScheme, parseAuthorization } from './parse-authorization.js';

/**
 * The credentials of a single `Authorization` header in the given scheme: absent when there is no
 * header, another scheme or nothing after the scheme word; ambiguous when the header is repeated;
 * rejected when longer than `maxLength`.
 *
 * @param schemeLower - the expected scheme word in lower case (`bearer`, `basic`).
 */
export function authorizationCredentials(
  request: RequestView,
  schemeLower: string,
  maxLength: number,
): Extraction<string> {
  const header = singleHeader(request, 'authorization');
  if (header.state !== 'present') return header;
  const parts = parseAuthorization(header.credential);
  if (parts === undefined || !isScheme(parts.scheme, schemeLower) || parts.credentials === '') {
    return ABSENT;
  }
  if (parts.credentials.length > maxLength) return REJECTED;
  return { state: 'present', credential: parts.credentials };
}
