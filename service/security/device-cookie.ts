import { createHmac, randomBytes } from 'node:crypto';
import { parse, serialize } from 'cookie';
import { timingSafeEqual } from 'vouch';

/** The cookie's name. */
export const DEVICE_COOKIE = 'vouch_device';
/** How long a device stays trusted after its last successful sign-in. */
const MAX_AGE_SECONDS = 90 * 24 * 3600;
const NONCE = /^[A-Za-z0-9_-]{22}$/;

/**
 * Device cookies (OWASP's defence against lock-out as a denial of service): a browser or client
 * that once signed in as a user is handed a cookie, signed and bound to that username, which it
 * sends back with later sign-ins. A failed sign-in elsewhere cannot lock it out: it is limited by
 * its own counter, under its own id, instead of the username's.
 */
export interface DeviceCookies {
  /** A new cookie for `username`, as a `Set-Cookie` header value. */
  issue(username: string): string;
  /**
   * The device id of a valid cookie for `username` in a `Cookie` header, read raw; `undefined`
   * when there is none, or it is for another user, or forged.
   */
  trusted(cookieHeader: string | undefined, username: string): string | undefined;
}

/** Device cookies signed with `key`; `Secure` when the service is served over https. */
export function deviceCookies(key: string, options: { secure: boolean }): DeviceCookies {
  const mac = (username: string, nonce: string) =>
    createHmac('sha256', key).update(`${nonce}\n${username}`).digest('base64url');
  return {
    issue(username) {
      const nonce = randomBytes(16).toString('base64url');
      return serialize(DEVICE_COOKIE, `${nonce}.${mac(username, nonce)}`, {
        httpOnly: true,
        sameSite: 'lax',
        path: '/api',
        secure: options.secure,
        maxAge: MAX_AGE_SECONDS,
      });
    },
    trusted(cookieHeader, username) {
      // Most requests carry no device cookie: spare them the parse.
      if (cookieHeader?.includes(DEVICE_COOKIE) !== true) return undefined;
      const value = parse(cookieHeader, { decode: (raw) => raw })[DEVICE_COOKIE];
      const dot = value?.indexOf('.') ?? -1;
      if (value === undefined || dot === -1) return undefined;
      const nonce = value.slice(0, dot);
      if (!NONCE.test(nonce)) return undefined;
      return timingSafeEqual(value.slice(dot + 1), mac(username, nonce)) ? nonce : undefined;
    },
  };
}
