import type { Pool } from 'pg';
import type { Repositories } from '../repository-store.js';

/** The statements of the `settings` table, prepared by each connection on first use. */
export function createSettingRepository(db: Pick<Pool, 'query'>): Repositories['settings'] {
  const get = async (name: string): Promise<string | undefined> => {
    const result = await db.query<{ value: string }>({
      name: 'vouch-setting-get',
      text: 'SELECT value FROM settings WHERE name = $1',
      values: [name],
    });
    return result.rows[0]?.value;
  };
  return {
    get,
    async setIfAbsent(name, value) {
      // A conflicting insert waits for the other writer's commit, so the read that follows sees
      // the value in force: the first writer's, everywhere.
      await db.query({
        name: 'vouch-setting-insert',
        text: 'INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING',
        values: [name, value],
      });
      const inForce = await get(name);
      if (inForce === undefined) throw new Error(`setting ${name} vanished after its insert`);
      return inForce;
    },
  };
}
