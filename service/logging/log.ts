import type { FastifyRequest } from 'fastify';

const SECRET_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'x-api-key',
  'key',
  'x-csrftoken',
]);
const REDACTED = '[REDACTED]';

/**
 * A request target with every query value replaced, and every bare name (`?<token>`, a value sent
 * alone): the only query parameters the service reads are API keys, and anything else there may
 * be a password or a token sent by mistake (`/api/token?password=…`), which a list of credential
 * names would miss under a name of its own. The names stay, so the log still says what was sent.
 */
export function redactUrl(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return url;
  const params = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      if (pair === '') return pair;
      const eq = pair.indexOf('=');
      return eq === -1 ? REDACTED : `${pair.slice(0, eq)}=${REDACTED}`;
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
