export {
  JwtBearer,
  type JwtBearerOptions,
  type JwtBearerSettings,
  type JwtMap,
} from './jwt-bearer.js';
export type { JwtKeys } from './jwt-keys.js';
