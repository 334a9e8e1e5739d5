// The demo credentials of a new database, on each engine: instances starting together on one
// database seed it once.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { storeEngines } from '../../test/helpers/store-engines.js';
import { seedDemo } from './demo.js';
import { checkLogin } from '../auth/check-login.js';
import { digest } from '../security/secrets.js';

for (const engine of storeEngines) {
  describe(`the demo on ${engine.name}`, () => {
    it('a new database gets one user and one key that work; a used one gets nothing', async (t) => {
      const db = await engine.create(t);
      if (db === undefined) return;
      const store = await db.open();
      const demo = await seedDemo(store, 1000);
      assert.ok(demo !== undefined);
      assert.equal((await checkLogin(store, demo.username, demo.password))?.user.username, 'demo');
      assert.equal(
        (await store.findApplicationByKey(digest(demo.apiKey)))?.name,
        demo.applicationName,
      );
      assert.equal(await seedDemo(store, 2000), undefined);
      assert.equal(await store.countUsers(), 1);
    });

    it('instances seeding at the same time: one seeds, the others start without', async (t) => {
      const db = await engine.create(t);
      if (db === undefined) return;
      const stores = [await db.open(), await db.open(), await db.open()];
      const seeded = await Promise.all(stores.map((store) => seedDemo(store, 1000)));
      assert.equal(seeded.filter((demo) => demo !== undefined).length, 1);
      assert.equal(await stores[0]!.countUsers(), 1);
      assert.equal((await stores[0]!.listApplications()).length, 1);
    });
  });
}
