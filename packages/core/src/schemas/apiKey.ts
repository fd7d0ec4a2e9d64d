/** API keys as the merchant API creates, lists, rolls and revokes them (wire shapes). */
import { z } from 'zod';
import { Scope, scopes } from '../access.ts';
import { namedObject, Timestamp, Uuid } from './common.ts';

const KeyName = z.string().trim().min(1).max(100);
const KeyScopes = z.array(Scope).min(1).max(scopes.length);

/** POST /api/v1/api_keys: a name, the scopes the key holds, and its mode (`live` unless given). */
export const ApiKeyCreateBody = namedObject('ApiKeyCreateRequest', {
  name: KeyName,
  scopes: KeyScopes,
  mode: z.enum(['live', 'test']).optional(),
});

/** POST /api/v1/api_keys/:id/roll: how long the old key keeps working beside the new one (0: it stops now). */
export const ApiKeyRollBody = namedObject('ApiKeyRollRequest', {
  overlap_minutes: z
    .number()
    .int()
    .min(0)
    .max(60 * 24 * 30),
});

/** A key as listed: never its secret, only its first characters. */
export const ApiKey = namedObject('ApiKey', {
  id: Uuid,
  name: z.string().nullable(),
  prefix: z.string().meta({ example: 'ck_live_Ab3dE5f' }),
  scopes: z.array(Scope),
  mode: z.enum(['live', 'test']),
  created_at: Timestamp,
  /** When the key last authenticated a request, to the minute; null if never. */
  last_used_at: Timestamp.nullable(),
  /** When a rolled key stops working; null for a key without an end. */
  expires_at: Timestamp.nullable(),
});
export type ApiKey = z.infer<typeof ApiKey>;

export const ApiKeyListResponse = namedObject('ApiKeyList', { api_keys: z.array(ApiKey) });

/** A key just made (created or rolled): `key` is the secret, shown this once and never again. */
export const CreatedApiKeyResponse = namedObject('CreatedApiKeyResponse', {
  api_key: ApiKey,
  key: z.string().meta({ example: 'ck_live_3q2Yl0m1c2l9kQd0tW3m8xk9X1o4hZ0aJ7bS8cP6uV5' }),
});

/** A roll's answer: the new key with its secret, and the old one with the time it stops working. */
export const RolledApiKeyResponse = namedObject('RolledApiKeyResponse', {
  api_key: ApiKey,
  key: CreatedApiKeyResponse.shape.key,
  previous_api_key: ApiKey,
});

export const ApiKeyResponse = namedObject('ApiKeyResponse', { api_key: ApiKey });
