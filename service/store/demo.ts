import { hashPassword } from '../security/passwords.js';
import { digest, newApiKey, newSecret } from '../security/secrets.js';
import { type Store } from './store.js';
import { UsernameTakenError } from '../errors.js';

/** The demo credentials created on a new database, shown once. */
export interface DemoCredentials {
  readonly username: string;
  readonly password: string;
  readonly applicationName: string;
  readonly apiKey: string;
}

/**
 * On an empty database outside production: one user and one application with random secrets,
 * so a newcomer can try every endpoint from the docs page at once. Returns `undefined` when the
 * database already has users, or when another instance starting at the same time seeded it.
 */
export async function seedDemo(store: Store, now: number): Promise<DemoCredentials | undefined> {
  if ((await store.countUsers()) > 0) return undefined;
  const username = 'demo';
  const password = newSecret(16);
  try {
    await store.createUser(username, await hashPassword(password), now);
  } catch (error) {
    if (error instanceof UsernameTakenError) return undefined;
    throw error;
  }
  const applicationName = 'demo application';
  const { key, prefix } = newApiKey();
  await store.createApplication(applicationName, prefix, digest(key), now);
  return { username, password, applicationName, apiKey: key };
}
