// RFC 6750 §2.1: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/** Whether a string is an RFC 6750 `b64token`, the only shape a Bearer token may take. */
export function isB64token(value: string): boolean {
  return B64TOKEN.test(value);
}
