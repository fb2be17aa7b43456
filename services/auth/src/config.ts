import { z } from 'zod';
import {
  envBoolean,
  parsePublicKeys,
  parseSigningKey,
  storageConfigShape,
  type BaseConfig,
  type StorageConfig,
} from '@earshot/kit';

const url = z.string().url();

/** Environment keys of the auth service (validated at start with the base ones). */
function parses(parse: (text: string) => unknown) {
  return (text: string, issue: z.RefinementCtx) => {
    try {
      parse(text);
    } catch (error) {
      issue.addIssue({ code: 'custom', message: (error as Error).message });
    }
  };
}

export const authConfigShape = {
  // Storage: a person's export is assembled here as a ZIP.
  ...storageConfigShape,
  /**
   * The Ed25519 private key (PKCS#8 PEM or JWK) that signs access tokens; required when the service
   * runs on its own. Unset in all-in-one: a key pair is generated into DATA_DIR.
   */
  AUTH_SIGNING_KEY: z.string().superRefine(parses(parseSigningKey)).optional(),
  /** Public keys of earlier signing keys, published until the tokens they signed have expired. */
  AUTH_PREVIOUS_PUBLIC_KEYS: z.string().superRefine(parses(parsePublicKeys)).optional(),
  /** The platform administrator created on first start (when no HOST_ADMIN exists). */
  ADMIN_EMAIL: z.string().trim().toLowerCase().max(254).email().default('admin@earshot.local'),
  /** Its password; when unset a random one is generated and printed once to the console. */
  ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').max(200).optional(),
  /** Issuer shown in authenticator apps. */
  TWO_STEP_ISSUER: z.string().min(1).max(60).default('Earshot'),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GOOGLE_AUTH_URL: url.default('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_TOKEN_URL: url.default('https://oauth2.googleapis.com/token'),
  GOOGLE_USERINFO_URL: url.default('https://openidconnect.googleapis.com/v1/userinfo'),
  X_CLIENT_ID: z.string().optional(),
  X_CLIENT_SECRET: z.string().optional(),
  X_AUTH_URL: url.default('https://x.com/i/oauth2/authorize'),
  X_TOKEN_URL: url.default('https://api.x.com/2/oauth2/token'),
  X_USERINFO_URL: url.default('https://api.x.com/2/users/me?user.fields=confirmed_email'),
  /**
   * Companies' identity providers must be https:// on public addresses; `true` also allows http://
   * and private or loopback issuers (a local test provider). Link-local and metadata addresses stay refused.
   */
  SSO_ALLOW_INSECURE_ISSUERS: envBoolean(false),
  /**
   * A person's exports and erasures of one company running at once (every auth process together);
   * the company's others wait their turn while other companies' start.
   */
  PRIVACY_COMPANY_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(1),
};

export type AuthConfig = BaseConfig & StorageConfig & z.infer<z.ZodObject<typeof authConfigShape>>;
