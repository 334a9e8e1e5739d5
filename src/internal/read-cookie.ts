import { ABSENT, AMBIGUOUS, type Extraction } from '../core/outcome.js';
import type { HeaderMap } from '../core/request.js';

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
