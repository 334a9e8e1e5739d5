import { requireToken } from '../core/configuration-checks.js';
import { singleHeader } from '../internal/read-once.js';
import { APIKey, type APIKeyOptions } from './api-key.js';

/**
 * An API key in a request header: `<paramName>: <key>`, matched case-insensitively. The header
 * sent twice answers 400.
 *
 * @example new APIKeyHeader({ paramName: 'X-API-Key', authenticate: (request, key) => apps.byKey(key) })
 */
export class APIKeyHeader<TAuth = unknown> extends APIKey<TAuth> {
  readonly in = 'header';

  constructor(options: APIKeyOptions<TAuth> = {}) {
    super('Header', options, (paramName) => {
      const lowerName = paramName.toLowerCase();
      return (request) => singleHeader(request, lowerName, paramName);
    });
    requireToken(this.paramName, 'APIKeyHeader paramName');
  }
}
