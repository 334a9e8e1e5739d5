import { ConfigurationError } from '../core/errors.js';
import type { RequestView } from '../core/request.js';
import type { ProtectedResource } from '../oauth/protected-resource.js';

/**
 * What tells a request's public URL, `scheme://host[:port]/path` without query and fragment, as
 * the client addressed it: from a configured origin, or from proxies the application trusts,
 * never from what any client says. `undefined` when it cannot tell (then no proof matches).
 */
export interface PublicUrlSource {
  publicUrl(request: RequestView): string | undefined;
}

/**
 * The public URL as the protected resource's origin and the request's path: right for a service
 * answering at its resource identifier's origin. Throws {@link ConfigurationError} without one.
 */
export function publicUrlSource(resource: ProtectedResource | undefined): PublicUrlSource {
  if (resource === undefined) {
    throw new ConfigurationError(
      "DPoPBearer needs edge (what tells a request's public URL), or tokens with a resource whose origin it is",
    );
  }
  const { origin } = new URL(resource.resource);
  return {
    publicUrl({ url }) {
      // An origin-form target only: an absolute-form one names an origin nobody configured.
      if (!url.startsWith('/')) return undefined;
      const end = url.search(/[?#]/);
      return origin + (end === -1 ? url : url.slice(0, end));
    },
  };
}
