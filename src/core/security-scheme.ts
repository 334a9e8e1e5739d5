/** An OpenAPI 3.1 Security Scheme Object, as the authenticator documents itself. */
export type SecurityScheme =
  | {
      readonly type: 'http';
      readonly scheme: string;
      readonly bearerFormat?: string;
      readonly description?: string;
    }
  | {
      readonly type: 'apiKey';
      readonly in: 'query' | 'header' | 'cookie';
      readonly name: string;
      readonly description?: string;
    }
  | {
      readonly type: 'oauth2' | 'openIdConnect' | 'mutualTLS';
      readonly description?: string;
      readonly [key: string]: unknown;
    };
