export {
  JwtBearer,
  type JwtAudienceOptions,
  type JwtBearerOptions,
  type JwtBearerSettings,
  type JwtIssuerOptions,
  type JwtMap,
} from './jwt-bearer.js';
export type { JwtKeys } from './jwt-keys.js';
export type { JwtIssuer } from './trusted-issuers.js';
