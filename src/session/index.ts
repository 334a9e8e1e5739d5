export { MemorySessionStore, type MemorySessionStoreOptions } from './memory-session-store.js';
export { SessionAuth, type SessionAuthOptions } from './session-auth.js';
export type { SessionStore } from './session-store.js';
