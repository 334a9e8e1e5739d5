import { ABSENT, AMBIGUOUS, type Extraction } from '../core/outcome.js';

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
