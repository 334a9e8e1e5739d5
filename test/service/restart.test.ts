// Everything the service issues lives in the SQLite file: a new process over the same file
// honours it, and what was revoked stays revoked.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { it } from 'node:test';
import { newSecret } from '../../service/security/secrets.js';
import {
  addApplication,
  addUser,
  bearer,
  getToken,
  login,
  startService,
  tempDir,
} from './helpers.js';

it('users, keys, tokens, sessions and revocations survive a restart on the same file', async (t) => {
  const file = join(await tempDir(t), 'vouch.db');
  // Outside production the server keeps its generated secret in the database: the same one here.
  const secretKey = newSecret();
  const before = await startService(t, { file, secretKey, keepOpen: true });
  try {
    await addUser(before.store, 'alice', 'wonderland');
    const kept = await addApplication(before.store, 'Kept app');
    const revoked = await addApplication(before.store, 'Revoked app');
    await before.store.revokeApplication(revoked.record.id, Date.now());
    const token = await getToken(before, 'alice', 'wonderland');
    const session = await login(before, 'alice', 'wonderland');

    await before.app.close();
    await before.store.close();

    const after = await startService(t, { file, secretKey });
    assert.notEqual(after.base, before.base);
    assert.equal((await getToken(after, 'alice', 'wonderland')).length, 43);
    const bearerResponse = await after.fetch('/api/bearer', { headers: bearer(token) });
    assert.equal(bearerResponse.status, 200);
    assert.deepEqual(await bearerResponse.json(), { token });
    const keyResponse = await after.fetch('/api/headerkey', { headers: { 'x-api-key': kept.key } });
    assert.equal(keyResponse.status, 200);
    assert.match(await keyResponse.text(), /Kept app/);
    const revokedResponse = await after.fetch('/api/headerkey', {
      headers: { 'x-api-key': revoked.key },
    });
    assert.equal(revokedResponse.status, 401);
    const pets = await after.fetch('/api/pets', { headers: { cookie: session.cookie } });
    assert.equal(pets.status, 200);
    assert.match(await pets.text(), /alice/);
    const logout = await after.fetch('/api/auth/logout', {
      method: 'POST',
      headers: {
        cookie: session.cookie,
        origin: after.config.publicOrigin,
        'x-csrftoken': session.csrftoken,
      },
    });
    assert.equal(logout.status, 204, 'the CSRF token issued before the restart still verifies');
    assert.deepEqual(
      (await after.store.listApplications()).map((application) => [
        application.name,
        application.revokedAt !== null,
      ]),
      [
        ['Kept app', false],
        ['Revoked app', true],
      ],
    );
  } finally {
    await before.app.close();
    await before.store.close();
  }
});
