import type { Pool } from 'pg';
import { NotFoundError } from '../../errors.js';
import { onlyRow } from './only-row.js';

/** The tables whose rows are revoked, each by its key column. */
const KEYS = { tokens: 'digest', applications: 'id' } as const;

/**
 * Revokes the row of `table` whose key is `key` unless it already is: `true` when revoked now,
 * `false` when it already was, {@link NotFoundError} naming `what` when there is no such row.
 */
export async function revokeOnce(
  db: Pick<Pool, 'query'>,
  table: keyof typeof KEYS,
  key: string | number,
  now: number,
  what: string,
): Promise<boolean> {
  const column = KEYS[table];
  // One statement: the outer query sees the table as it was before the update.
  const result = await db.query<{ revoked: boolean; found: boolean }>({
    name: `vouch-${table}-revoke`,
    text: `WITH revoked AS (
             UPDATE ${table} SET revoked_at = $2 WHERE ${column} = $1 AND revoked_at IS NULL
             RETURNING 1
           )
           SELECT EXISTS (SELECT 1 FROM revoked) AS revoked,
                  EXISTS (SELECT 1 FROM ${table} WHERE ${column} = $1) AS found`,
    values: [key, now],
  });
  const { revoked, found } = onlyRow(result);
  if (!found) throw new NotFoundError(what);
  return revoked;
}
