// The storage of one oidc-provider instance in the tests: a Map per server, so that two servers
// in one process share nothing (oidc-provider's own quick-start adapter warns on every start).
import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';

interface Entry {
  readonly payload: AdapterPayload;
  /** Milliseconds since the epoch, or Infinity. */
  readonly expiresAt: number;
}

/** An adapter factory over a fresh, private Map: what oidc-provider stores lives and dies with it. */
export function memoryStore(): AdapterFactory {
  const entries = new Map<string, Entry>();
  const live = (key: string): AdapterPayload | undefined => {
    const entry = entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= Date.now()) {
      entries.delete(key);
      return undefined;
    }
    return entry.payload;
  };
  return (model: string): Adapter => {
    const key = (id: string) => `${model}:${id}`;
    const findBy = (field: 'uid' | 'userCode', value: string) => {
      for (const [name, entry] of entries) {
        if (name.startsWith(`${model}:`) && entry.payload[field] === value) return live(name);
      }
      return undefined;
    };
    return {
      async upsert(id, payload, expiresIn) {
        const expiresAt = expiresIn === undefined ? Infinity : Date.now() + expiresIn * 1000;
        entries.set(key(id), { payload, expiresAt });
      },
      async find(id) {
        return live(key(id));
      },
      async findByUid(uid) {
        return findBy('uid', uid);
      },
      async findByUserCode(userCode) {
        return findBy('userCode', userCode);
      },
      async consume(id) {
        const payload = live(key(id));
        if (payload !== undefined) payload.consumed = Math.floor(Date.now() / 1000);
      },
      async destroy(id) {
        entries.delete(key(id));
      },
      async revokeByGrantId(grantId) {
        for (const [name, entry] of entries) {
          if (entry.payload.grantId === grantId) entries.delete(name);
        }
      },
    };
  };
}
