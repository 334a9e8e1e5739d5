import type { CredentialChange } from './store.js';

/**
 * A change as one line of text, as instances tell each other (PostgreSQL notifications, Redis
 * messages): `token:<digest>`, `session:<digest>`, `applications` or `all`. Digests are what the
 * database keeps, never a credential.
 */
export function formatChange(change: CredentialChange): string {
  return 'digest' in change ? `${change.kind}:${change.digest}` : change.kind;
}

/** A message read back as a change; anything unexpected means "anything may have changed". */
export function parseChange(message: string | undefined): CredentialChange {
  const colon = message?.indexOf(':') ?? -1;
  const kind = colon === -1 ? message : message?.slice(0, colon);
  const digest = message?.slice(colon + 1) ?? '';
  if ((kind === 'token' || kind === 'session') && colon !== -1 && digest !== '') {
    return { kind, digest };
  }
  if (kind === 'applications' && colon === -1) return { kind };
  return { kind: 'all' };
}
