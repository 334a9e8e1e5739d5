// The service keeps found credentials in memory; these prove that nothing taken away elsewhere
// (by the CLI in its own process, or by another service process over the same file) still works
// on the very next request.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { digest } from '../../service/security/secrets.js';
import { addApplication, addUser, bearer, getToken, login, startService } from './helpers.js';
import { cli } from './processes.js';

/** `npm run -s cli -- …` in its own process, against the SQLite file `file`. */
function sqliteCli(file: string, args: string[], input = ''): Promise<string> {
  return cli({ DATABASE_URL: `sqlite:${file}` }, args, input);
}

describe('credentials kept in memory', () => {
  it('a key revoked by the CLI, in its own process, is refused by the next request', async (t) => {
    const service = await startService(t);
    const revoked = await addApplication(service.store, 'Revoked app');
    const kept = await addApplication(service.store, 'Kept app');
    const call = (key: string) =>
      service.fetch('/api/headerkey', { headers: { 'x-api-key': key } });
    // Twice: the second answer comes from memory.
    for (let i = 0; i < 2; i++) assert.equal((await call(revoked.key)).status, 200);
    assert.equal((await call(kept.key)).status, 200);

    assert.match(
      await sqliteCli(service.file, ['key', 'revoke', String(revoked.record.id)]),
      /revoked/,
    );
    assert.equal((await call(revoked.key)).status, 401);
    assert.equal((await call(kept.key)).status, 200);
  });

  it('a session logged out on another service process is refused by the next request', async (t) => {
    const first = await startService(t);
    const second = await startService(t, { file: first.file });
    await addUser(first.store, 'alice', 'wonderland');
    const session = await login(first, 'alice', 'wonderland');
    const pets = () => second.fetch('/api/pets', { headers: { cookie: session.cookie } });
    for (let i = 0; i < 2; i++) assert.equal((await pets()).status, 200);

    const logout = await first.fetch('/api/auth/logout', {
      method: 'POST',
      headers: {
        cookie: session.cookie,
        origin: first.config.publicOrigin,
        'x-csrftoken': session.csrftoken,
      },
    });
    assert.equal(logout.status, 204);
    assert.equal((await pets()).status, 401);
  });

  it('a token revoked by the CLI, in its own process, is refused by the next request', async (t) => {
    const service = await startService(t);
    await addUser(service.store, 'alice', 'wonderland');
    const revoked = await getToken(service, 'alice', 'wonderland');
    const kept = await getToken(service, 'alice', 'wonderland');
    const call = (token: string) => service.fetch('/api/bearer', { headers: bearer(token) });
    for (let i = 0; i < 2; i++) assert.equal((await call(revoked)).status, 200);
    assert.equal((await call(kept)).status, 200);

    assert.equal(
      await sqliteCli(service.file, ['token', 'revoke'], `${revoked}\n`),
      'token revoked\n',
    );
    assert.equal((await call(revoked)).status, 401);
    assert.equal((await call(kept)).status, 200);
  });

  it('a token revoked through the store is refused by the next request', async (t) => {
    const service = await startService(t);
    await addUser(service.store, 'alice', 'wonderland');
    const token = await getToken(service, 'alice', 'wonderland');
    const call = () => service.fetch('/api/bearer', { headers: bearer(token) });
    for (let i = 0; i < 2; i++) assert.equal((await call()).status, 200);
    assert.equal(await service.store.revokeToken(digest(token), Date.now()), true);
    assert.equal((await call()).status, 401);
  });

  it('CREDENTIAL_CACHE_SECONDS=0 keeps nothing, and the service answers the same', async (t) => {
    const service = await startService(t, { env: { CREDENTIAL_CACHE_SECONDS: '0' } });
    assert.equal(service.config.credentialCacheMs, 0);
    const app = await addApplication(service.store, 'Billing');
    const call = () => service.fetch('/api/headerkey', { headers: { 'x-api-key': app.key } });
    for (let i = 0; i < 2; i++) assert.equal((await call()).status, 200);
    await service.store.revokeApplication(app.record.id, Date.now());
    assert.equal((await call()).status, 401);
  });
});
