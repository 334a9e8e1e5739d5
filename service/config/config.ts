import { BlockList, isIP } from 'node:net';
import { EnvironmentError } from '../errors.js';
import { DEFAULT_REDIS_KEY_PREFIX } from '../redis/open-redis.js';
import { DEFAULT_DATABASE_URL } from '../store/open-store.js';

/** The service's settings, read from the environment once at start-up. */
export interface Config {
  readonly port: number;
  readonly host: string;
  readonly databaseUrl: string;
  /** The Redis server instances share, or `undefined` for none. */
  readonly redisUrl: string | undefined;
  /** What the service's Redis keys and channel begin with. */
  readonly redisKeyPrefix: string;
  /** Addresses and networks allowed on `/api/ipwhiltelist`. */
  readonly ipAllowlist: BlockList;
  /** The allow-list as configured, for messages. */
  readonly ipAllowlistText: string;
  /** Proxies whose forwarded headers count (`false`: none). */
  readonly trustProxy: false | string[];
  /** The origin browsers reach the service at; trusted for CSRF, `Secure` cookies when https. */
  readonly publicOrigin: string;
  /** Server secret; `undefined` outside production means "generate and keep in the database". */
  readonly secretKey: string | undefined;
  readonly logLevel: string;
  readonly production: boolean;
  /** Bearer token lifetime. */
  readonly tokenTtlSeconds: number;
  /** Session idle and absolute timeouts. */
  readonly sessionIdleMs: number;
  readonly sessionAbsoluteMs: number;
  /** How long a found token, key or session is kept in memory at most; 0: never kept. */
  readonly credentialCacheMs: number;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const PROXY_KEYWORDS = ['loopback', 'linklocal', 'uniquelocal'];

/** Reads and checks the configuration; throws {@link EnvironmentError} naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const production = env.NODE_ENV === 'production';
  const port = integer(env, 'PORT', 8000, 0, 65535);
  const host = hostname(text(env, 'HOST', '127.0.0.1'));
  const allowlistText = text(env, 'IP_ALLOWLIST', '127.0.0.1,::1');
  const secretKey =
    env.SECRET_KEY === undefined || env.SECRET_KEY === '' ? undefined : env.SECRET_KEY;
  if (secretKey === undefined && production) {
    throw new EnvironmentError('SECRET_KEY', 'is required when NODE_ENV=production');
  }
  if (secretKey !== undefined && secretKey.length < 32) {
    throw new EnvironmentError('SECRET_KEY', 'must be at least 32 characters');
  }
  const logLevel = text(env, 'LOG_LEVEL', 'info');
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new EnvironmentError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  }
  return {
    port,
    host,
    databaseUrl: text(env, 'DATABASE_URL', DEFAULT_DATABASE_URL),
    redisUrl: redisUrl(env.REDIS_URL),
    redisKeyPrefix: redisKeyPrefix(env.REDIS_KEY_PREFIX),
    ipAllowlist: allowlist(allowlistText),
    ipAllowlistText: allowlistText,
    trustProxy: proxies(env.TRUST_PROXY),
    publicOrigin: origin(
      env.PUBLIC_ORIGIN ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    ),
    secretKey,
    logLevel,
    production,
    tokenTtlSeconds: integer(env, 'TOKEN_TTL_SECONDS', 3600, 60, 30 * 86400),
    sessionIdleMs: integer(env, 'SESSION_IDLE_SECONDS', 30 * 60, 60, 30 * 86400) * 1000,
    sessionAbsoluteMs: integer(env, 'SESSION_ABSOLUTE_SECONDS', 12 * 3600, 60, 365 * 86400) * 1000,
    credentialCacheMs: integer(env, 'CREDENTIAL_CACHE_SECONDS', 10, 0, 3600) * 1000,
  };
}

function text(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  return value.trim();
}

function integer(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  if (!/^\d+$/.test(value.trim()))
    throw new EnvironmentError(name, `must be a whole number, got ${JSON.stringify(value)}`);
  const number = Number(value);
  if (number < min || number > max)
    throw new EnvironmentError(name, `must be between ${min} and ${max}, got ${number}`);
  return number;
}

/**
 * `REDIS_URL` checked: unset or empty means no Redis; otherwise `redis://` (or `rediss://` for
 * TLS) with a host and at most a logical database number as its path. Never echoes the URL.
 */
export function redisUrl(value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const url = URL.canParse(value.trim()) ? new URL(value.trim()) : undefined;
  if (
    url === undefined ||
    (url.protocol !== 'redis:' && url.protocol !== 'rediss:') ||
    url.hostname === '' ||
    !/^\/?(\d{1,5})?$/.test(url.pathname)
  ) {
    throw new EnvironmentError(
      'REDIS_URL',
      'must look like redis://host:6379/0 (or rediss:// for TLS, redis://:password@host:6379/0); ' +
        'a key prefix goes in REDIS_KEY_PREFIX',
    );
  }
  return value.trim();
}

/**
 * `REDIS_KEY_PREFIX` checked: unset or empty means `vouch:`; otherwise 1 to 64 letters, digits
 * and `:._-`, so that deployments (or test runs) sharing one Redis database never meet, and a
 * `SCAN MATCH <prefix>*` finds exactly their keys.
 */
export function redisKeyPrefix(value: string | undefined): string {
  if (value === undefined || value.trim() === '') return DEFAULT_REDIS_KEY_PREFIX;
  const prefix = value.trim();
  if (!/^[A-Za-z0-9:._-]{1,64}$/.test(prefix)) {
    throw new EnvironmentError(
      'REDIS_KEY_PREFIX',
      'must be 1 to 64 letters, digits, ":", ".", "_" or "-", such as vouch: or vouch-staging:',
    );
  }
  return prefix;
}

// RFC 1123 host names: dot-separated labels of letters, digits and inner hyphens.
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/** `HOST` checked: an IP address, or a host name whose last label is not a number. */
function hostname(value: string): string {
  const labels = value.split('.');
  const valid =
    isIP(value) !== 0 ||
    (value.length <= 253 &&
      labels.every((label) => LABEL.test(label)) &&
      !/^\d+$/.test(labels.at(-1) ?? ''));
  if (!valid) {
    throw new EnvironmentError(
      'HOST',
      `${JSON.stringify(value)} is not an address or a host name (127.0.0.1, 0.0.0.0, ::, localhost)`,
    );
  }
  return value;
}

function allowlist(value: string): BlockList {
  const list = new BlockList();
  for (const entry of value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const [address = '', bits, extra] = entry.split('/');
    const family = isIP(address);
    const prefix = bits === undefined ? undefined : Number(bits);
    const maxBits = family === 6 ? 128 : 32;
    if (
      family === 0 ||
      extra !== undefined ||
      (prefix !== undefined && !(Number.isInteger(prefix) && prefix >= 0 && prefix <= maxBits))
    ) {
      throw new EnvironmentError(
        'IP_ALLOWLIST',
        `${JSON.stringify(entry)} is not an address or a network (a.b.c.d, a.b.c.d/n, ::1, fe80::/10)`,
      );
    }
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, prefix, type);
  }
  return list;
}

function proxies(value: string | undefined): false | string[] {
  if (value === undefined || ['', 'off', 'false', '0', 'no'].includes(value.trim().toLowerCase()))
    return false;
  const entries = value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const [address = '', bits] = entry.split('/');
    if (
      !PROXY_KEYWORDS.includes(entry) &&
      (isIP(address) === 0 || (bits !== undefined && !/^\d{1,3}$/.test(bits)))
    ) {
      throw new EnvironmentError(
        'TRUST_PROXY',
        `${JSON.stringify(entry)} is not off, an address, a network or one of ${PROXY_KEYWORDS.join(', ')}`,
      );
    }
  }
  return entries;
}

function origin(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new EnvironmentError('PUBLIC_ORIGIN', `${JSON.stringify(value)} is not a URL`);
  }
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.pathname !== '/' ||
    url.search !== '' ||
    url.hash !== '' ||
    url.username !== ''
  ) {
    throw new EnvironmentError(
      'PUBLIC_ORIGIN',
      `${JSON.stringify(value)} must be an origin such as https://api.example.com`,
    );
  }
  return url.origin;
}

/** The client address as the allow-list sees it: `::ffff:127.0.0.1` is `127.0.0.1`. */
export function clientAddress(ip: string): { address: string; type: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped?.[1] !== undefined) return { address: mapped[1], type: 'ipv4' };
  return { address: ip, type: isIP(ip) === 6 ? 'ipv6' : 'ipv4' };
}
