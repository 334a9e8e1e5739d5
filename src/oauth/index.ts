export {
  protectedResource,
  ProtectedResource,
  RESOURCE_METADATA_PATH,
  type ProtectedResourceMetadata,
  type ProtectedResourceOptions,
} from './protected-resource.js';
