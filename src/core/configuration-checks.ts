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

/** Makes an OpenAPI component name from free text: only `A-Za-z0-9._-` survive. */
export function schemeNamePart(value: string): string {
  return value.replace(/[^A-Za-z0-9._-]/g, '_');
}
