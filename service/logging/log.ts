import type { FastifyRequest } from 'fastify';

const SECRET_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'x-api-key',
  'key',
  'x-csrftoken',
]);
// The service's API-key parameters, and RFC 6750's access_token.
const SECRET_PARAMS = new Set(['api_key', 'key', 'access_token']);
const REDACTED = '[REDACTED]';

/**
 * A request target with the values of credential query parameters replaced, whatever their name's
 * case, percent-encoding or brackets (`api_key[]`, `api_key[a]`, `API_KEY`).
 */
export function redactUrl(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return url;
  const params = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // A malformed name is logged as sent; it cannot be a credential parameter.
      }
      const bare = decoded.replace(/\[.*$/, '').toLowerCase();
      return SECRET_PARAMS.has(bare) ? `${name}=${REDACTED}` : pair;
    });
  return `${url.slice(0, start)}?${params.join('&')}`;
}

/** Headers as logged: credentials, cookies and API keys replaced. */
export function redactHeaders(headers: FastifyRequest['headers']): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = SECRET_HEADERS.has(name) ? REDACTED : value;
  }
  return out;
}

/** Pino options for the service: levels from configuration, every secret redacted. */
export function loggerOptions(level: string) {
  return {
    level,
    serializers: {
      req(request: FastifyRequest) {
        return {
          method: request.method,
          url: redactUrl(request.url),
          remoteAddress: request.ip,
          headers: redactHeaders(request.headers),
        };
      },
    },
    // Belt and braces for anything logged by hand.
    redact: {
      paths: [
        'headers.authorization',
        'headers.cookie',
        'headers["x-api-key"]',
        'headers["set-cookie"]',
        'res.headers["set-cookie"]',
        'password',
        'body.password',
        'token',
        'key',
      ],
      censor: REDACTED,
    },
  };
}
