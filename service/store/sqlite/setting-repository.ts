import type Database from 'better-sqlite3';

/** The `settings` table through prepared statements. */
export interface SettingRepository {
  get(name: string): string | undefined;
  setIfAbsent(name: string, value: string): string;
}

/** Prepares the statements of the `settings` table once, for the life of the connection. */
export function createSettingRepository(db: Database.Database): SettingRepository {
  const read = db.prepare<[string], string>('SELECT value FROM settings WHERE name = ?').pluck();
  const insert = db.prepare<[string, string]>(
    'INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING',
  );
  // Insert and read back under one write lock: the first writer's value wins everywhere.
  const setIfAbsent = db.transaction((name: string, value: string): string => {
    insert.run(name, value);
    return read.get(name) as string;
  });

  return {
    get: (name) => read.get(name),
    setIfAbsent: (name, value) => setIfAbsent.immediate(name, value),
  };
}
