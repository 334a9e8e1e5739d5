import type { Pool, PoolClient } from 'pg';

/**
 * Runs `work` in one transaction on a pooled connection of its own: committed when `work`
 * resolves, rolled back when anything throws. A connection whose rollback failed too is in no
 * known state: it is closed, not given back.
 */
export async function inTransaction<T>(
  pool: Pick<Pool, 'connect'>,
  work: (client: PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  // A connection cut while checked out also emits 'error' (the query under way fails with it):
  // unheard, the event would end the process.
  const ignore = () => {};
  client.on('error', ignore);
  let broken = false;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    broken = await client.query('ROLLBACK').then(
      () => false,
      () => true,
    );
    throw error;
  } finally {
    client.removeListener('error', ignore);
    client.release(broken);
  }
}
