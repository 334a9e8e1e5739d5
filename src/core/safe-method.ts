/**
 * RFC 9110 §9.2.1: the methods a browser may send cross-site without the user meaning to change
 * anything. Every other method, including those an application adds, is unsafe.
 */
export const SAFE_METHODS: readonly string[] = Object.freeze(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

const SAFE: ReadonlySet<string> = new Set(SAFE_METHODS);

/**
 * Whether `method` is safe (GET, HEAD, OPTIONS, TRACE, in any case): the one rule for where CSRF
 * protection applies, to requests, routes and their description alike.
 *
 * @example isSafeMethod('PROPFIND') // false
 */
export function isSafeMethod(method: string): boolean {
  return SAFE.has(method) || SAFE.has(method.toUpperCase());
}
