import { ConfigurationError } from '../core/errors.js';

/** Throws at construction when neither a hook option nor an `authenticate` override exists. */
export function requireHook(kind: string, hasOption: boolean, overridden: boolean): void {
  if (!hasOption && !overridden) {
    throw new ConfigurationError(
      `${kind} needs an authenticate hook: pass { authenticate } or override authenticate() in a subclass`,
    );
  }
}

/** Makes an OpenAPI component name from free text: only `A-Za-z0-9._-` survive. */
export function schemeNamePart(value: string): string {
  return value.replace(/[^A-Za-z0-9._-]/g, '_');
}
