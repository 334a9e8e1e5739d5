// Checks of options at construction: each throws a ConfigurationError naming what is wrong.
import { ConfigurationError } from '../core/errors.js';

/** Throws at construction when neither a hook option nor an `authenticate` override exists. */
export function requireHook(kind: string, hasOption: boolean, overridden: boolean): void {
  if (!hasOption && !overridden) {
    throw new ConfigurationError(
      `${kind} needs an authenticate hook: pass { authenticate } or override authenticate() in a subclass`,
    );
  }
}

/**
 * Throws at construction unless exactly one way of judging credentials is given: a hook option,
 * an `authenticate` override, or static secrets (`tokens`, `keys`). Two would leave one unused.
 */
export function requireHookOrSecrets(
  kind: string,
  secretsOption: string,
  hasOption: boolean,
  overridden: boolean,
  hasSecrets: boolean,
): void {
  if (!hasSecrets) {
    if (!hasOption && !overridden) {
      throw new ConfigurationError(
        `${kind} needs an authenticate hook or ${secretsOption}: pass { authenticate }, { ${secretsOption} } or override authenticate() in a subclass`,
      );
    }
    return;
  }
  if (hasOption || overridden) {
    throw new ConfigurationError(
      `${kind} takes ${secretsOption} or an authenticate hook, not both`,
    );
  }
}

const PRINTABLE = /^[\x20-\x7e]*$/;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Throws unless `value` can stand in a challenge: printable ASCII only (no controls, no CR/LF). */
export function requirePrintable(value: string, what: string): void {
  if (!PRINTABLE.test(value)) {
    throw new ConfigurationError(`${what} ${JSON.stringify(value)} must be printable ASCII`);
  }
}

/** Throws unless `value` is an HTTP token (RFC 9110 §5.6.2), as header and cookie names must be. */
export function requireToken(value: string, what: string): void {
  if (!TOKEN.test(value)) {
    throw new ConfigurationError(`${what} ${JSON.stringify(value)} is not a valid HTTP token`);
  }
}

/**
 * A whole-number option: `fallback` when left out, else a safe integer of 0 or more (above 0 when
 * `positive`). Throws a {@link ConfigurationError}: "`what` must be a whole number [of `unit`], 0
 * or more" (or "more than 0").
 */
export function wholeNumber(
  value: number | undefined,
  fallback: number,
  what: string,
  { unit, positive = false }: { readonly unit?: string; readonly positive?: boolean } = {},
): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < (positive ? 1 : 0)) {
    const of = unit === undefined ? '' : ` of ${unit}`;
    throw new ConfigurationError(
      `${what} must be a whole number${of}, ${positive ? 'more than 0' : '0 or more'}`,
    );
  }
  return value;
}

/**
 * The values a claim must hold, given as one string or a list of them: `undefined` for `false`
 * (any, deliberately); a {@link ConfigurationError} with `refusal` for anything else, an empty
 * list or an empty string included.
 */
export function claimValues(value: unknown, refusal: string): readonly string[] | undefined {
  if (value === false) return undefined;
  const values: unknown[] = Array.isArray(value) ? value : [value];
  if (values.length === 0 || values.some((one) => typeof one !== 'string' || one === '')) {
    throw new ConfigurationError(refusal);
  }
  return values as string[];
}

/** Makes an OpenAPI component name from free text: only `A-Za-z0-9._-` survive. */
export function schemeNamePart(value: string): string {
  return value.replace(/[^A-Za-z0-9._-]/g, '_');
}
