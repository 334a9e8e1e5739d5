import type { Pool } from 'pg';
import { NotFoundError } from '../../errors.js';
import { onlyRow } from './only-row.js';

/** The holders of scopes: their table, the column naming one, and their grants' table. */
const HOLDERS = {
  users: { key: 'username', grants: 'user_scopes', owner: 'user_id' },
  applications: { key: 'id', grants: 'application_scopes', owner: 'application_id' },
} as const;

/**
 * Grants a scope to (or withdraws it from) the row of `holders` whose key is `key`: `true` when
 * changed now, `false` when it already held (or did not hold) it, {@link NotFoundError} naming
 * `what` when there is no such row.
 */
export async function changeGrant(
  db: Pick<Pool, 'query'>,
  holders: keyof typeof HOLDERS,
  change: 'grant' | 'revoke',
  key: string | number,
  scope: string,
  what: string,
): Promise<boolean> {
  const { key: column, grants, owner } = HOLDERS[holders];
  const write =
    change === 'grant'
      ? `INSERT INTO ${grants} (${owner}, scope) SELECT id, $2 FROM holder
         ON CONFLICT DO NOTHING RETURNING 1`
      : `DELETE FROM ${grants} WHERE ${owner} IN (SELECT id FROM holder) AND scope = $2
         RETURNING 1`;
  // One statement: whether the holder exists is read in the same snapshot as the change.
  const result = await db.query<{ changed: boolean; found: boolean }>({
    name: `vouch-${holders}-${change}-scope`,
    text: `WITH holder AS (SELECT id FROM ${holders} WHERE ${column} = $1),
                changed AS (${write})
           SELECT EXISTS (SELECT 1 FROM changed) AS changed,
                  EXISTS (SELECT 1 FROM holder) AS found`,
    values: [key, scope],
  });
  const { changed, found } = onlyRow(result);
  if (!found) throw new NotFoundError(what);
  return changed;
}
