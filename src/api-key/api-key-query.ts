import { queryParam } from '../internal/read-once.js';
import { APIKey, type APIKeyOptions } from './api-key.js';

/**
 * An API key in the query string: `GET /path?<paramName>=<key>`. A parameter given twice
 * answers 400.
 *
 * @example new APIKeyQuery({ paramName: 'api_key', authenticate: (request, key) => apps.byKey(key) })
 */
export class APIKeyQuery<TAuth = unknown> extends APIKey<TAuth> {
  readonly in = 'query';

  constructor(options: APIKeyOptions<TAuth> = {}) {
    super('Query', options, (paramName) => (request) => queryParam(request.url, paramName));
  }
}
