import { SchemeRegistry } from '../core/scheme-registry.js';
import type { SecurityScheme } from '../core/security-scheme.js';
import type { OperationAuth } from '../core/operation-auth.js';
import { describeSecurity } from './describe-security.js';

/**
 * What decides an operation, given its method (upper case) and a concrete path that the path
 * template matches; `undefined` where vouch declares nothing.
 */
export type OperationAuthOf = (method: string, path: string) => OperationAuth | undefined;

/** The parts of an OpenAPI document vouch reads and fills. */
export interface DocumentParts {
  paths?: Record<string, Record<string, unknown> | undefined>;
  components?: { securitySchemes?: Record<string, unknown> };
}

/** A document as vouch fills it: it may gain `components.securitySchemes`. */
export type Filled<TDocument> = TDocument & {
  components?: { securitySchemes?: Record<string, unknown> };
};

interface OperationParts {
  security?: unknown;
  responses?: Record<string, unknown>;
}

const OPERATION_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * A copy of an OpenAPI document in which every operation vouch decides carries its `security`
 * and vouch's error responses, and `components.securitySchemes` lists the schemes in use. vouch
 * decides `security` (the description must say what is enforced), `[]` where no credential is
 * described, so that no operation inherits a top-level one; a response the operation
 * already documents for a status is kept. Operations vouch declares nothing for are left as they
 * are. The given document is never changed.
 */
export function fillDocument<TDocument extends object>(
  document: TDocument,
  authOf: OperationAuthOf,
): Filled<TDocument> {
  const result = structuredClone(document) as TDocument & DocumentParts;
  const registry = new SchemeRegistry();
  for (const [template, item] of Object.entries(result.paths ?? {})) {
    if (item === undefined) continue;
    const path = samplePath(template);
    for (const method of OPERATION_METHODS) {
      const operation = item[method] as OperationParts | undefined;
      if (operation === undefined) continue;
      const name = method.toUpperCase();
      const auth = authOf(name, path);
      if (auth === undefined) continue;
      if (auth.requirements !== null) registry.add(auth.requirements, `${name} ${template}`);
      const { security, responses } = describeSecurity(auth, name);
      operation.security = security;
      const given = operation.responses ?? {};
      operation.responses = { ...responses, ...given };
    }
  }
  addSecuritySchemes(result, registry.toComponents());
  return result;
}

/**
 * Puts vouch's schemes into `components.securitySchemes`, next to any the document already has
 * (vouch's win on a shared name: the description must say what is enforced). Copies, so nothing
 * later done to the document reaches the authenticators.
 */
export function addSecuritySchemes(
  document: DocumentParts,
  schemes: Record<string, SecurityScheme>,
): void {
  const merged = { ...document.components?.securitySchemes, ...structuredClone(schemes) };
  if (Object.keys(merged).length === 0) return;
  document.components = { ...document.components, securitySchemes: merged };
}

/** A path an OpenAPI path template matches: each `{parameter}` stands for one segment. */
export function samplePath(template: string): string {
  return template.replace(/\{[^}/]*\}/g, '0');
}
