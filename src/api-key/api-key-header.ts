import type { Extraction } from '../core/outcome.js';
import type { RequestView } from '../core/request.js';
import { requireToken } from '../internal/hook.js';
import { singleHeader } from '../internal/single-header.js';
import { APIKey, type APIKeyOptions } from './api-key.js';

/**
 * An API key in a request header: `<paramName>: <key>`, matched case-insensitively. The header
 * sent twice answers 400.
 *
 * @example new APIKeyHeader({ paramName: 'X-API-Key', authenticate: (request, key) => apps.byKey(key) })
 */
export class APIKeyHeader<TAuth = unknown> extends APIKey<TAuth> {
  readonly in = 'header';
  readonly #lowerName: string;

  constructor(options: APIKeyOptions<TAuth> = {}) {
    super('Header', options);
    requireToken(this.paramName, 'APIKeyHeader paramName');
    this.#lowerName = this.paramName.toLowerCase();
  }

  protected override find(request: RequestView): Extraction<string> {
    return singleHeader(request, this.#lowerName, this.paramName);
  }
}
