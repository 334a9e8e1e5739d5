export {
  ClientCertificateAuth,
  type CertificateMap,
  type ClientCertificateAuthOptions,
} from './client-certificate-auth.js';
