import type Database from 'better-sqlite3';
import { NotFoundError } from '../../errors.js';

/**
 * A transaction that runs `change` with `(value, key)` and tells its three outcomes apart:
 * `true` when it changed a row, `false` when it changed none though the row `exists` for `key`
 * (the state asked for already held), and {@link NotFoundError} naming `notFound(key)` when there
 * is no such row. Call it `.immediate(key, value)`, so the check reads what the change saw.
 */
export function changeOnce<TKey extends string | number, TValue>(
  db: Database.Database,
  change: Database.Statement<[TValue, TKey]>,
  exists: Database.Statement<[TKey], number>,
  notFound: (key: TKey) => string,
): Database.Transaction<(key: TKey, value: TValue) => boolean> {
  return db.transaction((key: TKey, value: TValue): boolean => {
    if (change.run(value, key).changes > 0) return true;
    if (exists.get(key) === undefined) throw new NotFoundError(notFound(key));
    return false;
  });
}
