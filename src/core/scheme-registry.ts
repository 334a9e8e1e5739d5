import type { Requirement } from './auth-spec.js';
import { ConfigurationError } from './errors.js';
import type { SecurityScheme } from './security-scheme.js';

/**
 * The security schemes in use, by name. Two authenticators may share a name only when they
 * document the same scheme; anything else is a start-up error naming the route, so the
 * description can never silently merge two different configurations.
 */
export class SchemeRegistry {
  readonly #schemes = new Map<string, { scheme: SecurityScheme; json: string; where: string }>();

  /** Records the documented schemes of requirements declared at `where` (e.g. `GET /pets`). */
  add(requirements: readonly Requirement[], where: string): void {
    for (const requirement of requirements) {
      for (const authenticator of requirement) {
        const scheme = authenticator.securityScheme;
        if (scheme === undefined) continue;
        const name = authenticator.schemeName;
        const json = JSON.stringify(scheme);
        const known = this.#schemes.get(name);
        if (known === undefined) {
          this.#schemes.set(name, { scheme, json, where });
        } else if (known.json !== json) {
          throw new ConfigurationError(
            `${where}: security scheme name "${name}" is already used by a different scheme at ${known.where} (${known.json}); give one of them another name`,
          );
        }
      }
    }
  }

  /**
   * The schemes as an OpenAPI `components.securitySchemes` object, in the order they were first
   * added (the docs page lists them so under Authorize).
   */
  toComponents(): Record<string, SecurityScheme> {
    return Object.fromEntries([...this.#schemes].map(([name, { scheme }]) => [name, scheme]));
  }
}
