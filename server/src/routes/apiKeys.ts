/**
 * The merchant's API keys: create one with scopes (its secret answered once), list them, roll one (the old key
 * keeps working for an overlap, then stops), revoke one. A key never makes or rolls a key that can do more
 * than itself: scopes it does not hold, or a live key from a test key.
 */
import {
  ApiError,
  ApiKeyCreateBody,
  ApiKeyListResponse,
  ApiKeyResponse,
  ApiKeyRollBody,
  CreatedApiKeyResponse,
  grants,
  notFound,
  RolledApiKeyResponse,
  type Scope,
} from '@checkout/core';
import {
  type ApiKeyMode,
  createMerchantApiKey,
  findMerchantApiKey,
  listMerchantApiKeys,
  presentApiKey,
  revokeMerchantApiKey,
  rollMerchantApiKey,
} from '@checkout/db';
import type { AppState } from '../context.ts';
import { audited } from './audited.ts';
import { type Routes, recordPath, withBody } from './declare.ts';
import { account, created, errors, ok } from './docs.ts';

const apiKeyPath = recordPath({ id: 'API key' });

/**
 * Refuses a key of `scopes` and `mode` that the caller could not use itself: a scope it does not hold
 * (`403 insufficient_scope` naming each) or live mode from a test key (`403 forbidden` naming `mode`).
 */
function assertWithinCaller(state: AppState, scopes: readonly Scope[], mode: ApiKeyMode, field: string) {
  const caller = state.merchant!;
  const beyond = scopes.flatMap((scope, i) => (grants(caller.scopes, scope) ? [] : [{ scope, i }]));
  if (beyond.length > 0) {
    throw new ApiError(
      'insufficient_scope',
      `A key cannot give scopes it does not hold: ${beyond.map((b) => b.scope).join(', ')}`,
      {
        errors: beyond.map((b) => ({
          path: `${field}.${b.i}`,
          message: `${b.scope} is not held by this key`,
        })),
      },
    );
  }
  if (mode === 'live' && caller.testOnly) {
    throw new ApiError('forbidden', 'A test key cannot make or roll a live key', {
      errors: [{ path: 'mode', message: 'must be test for a test key' }],
    });
  }
}

/** Registers the API key routes on the authenticated account router. */
export function apiKeyRoutes(router: Routes): void {
  router.post(
    '/api_keys',
    account('keys:write', {
      summary: 'Create an API key with a name and scopes; its secret `key` is answered this once',
      responses: {
        ...created('The new key and its secret', CreatedApiKeyResponse),
        ...errors(400, 401, 403, 409, 422),
      },
    }),
    withBody({ schema: ApiKeyCreateBody }, async (ctx, body) => {
      const input = body();
      const merchant = ctx.state.merchant!;
      const mode = input.mode ?? (merchant.testOnly ? 'test' : 'live');
      assertWithinCaller(ctx.state, input.scopes, mode, 'scopes');
      const { key, row } = await audited(
        ctx,
        (db) =>
          createMerchantApiKey(db, {
            merchantId: merchant.merchantId,
            name: input.name,
            scopes: input.scopes,
            mode,
          }),
        ({ row }) => ({
          action: 'api_key.created',
          subject: row.id,
          detail: { name: row.label, scopes: row.scopes, mode: row.mode },
        }),
      );
      ctx.status = 201;
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { api_key: presentApiKey(row), key };
    }),
  );

  router.get(
    '/api_keys',
    account('keys:read', {
      summary: "The account's working keys, newest first: name, scopes, mode, when created and last used",
      responses: { ...ok('API keys', ApiKeyListResponse), ...errors(401, 403) },
    }),
    async (ctx) => {
      const rows = await listMerchantApiKeys(ctx.state.db, ctx.state.merchant!.merchantId);
      ctx.body = { api_keys: rows.map(presentApiKey) };
    },
  );

  router.post(
    '/api_keys/:id/roll',
    account('keys:write', {
      summary:
        'Roll a key: a new key with the same name, scopes and mode (its secret answered this once); the old one keeps working `overlap_minutes` more, then stops',
      requestParams: { path: apiKeyPath },
      responses: {
        ...created('The new key, its secret, and the old key with its end', RolledApiKeyResponse),
        ...errors(400, 401, 403, 404, 409, 422),
      },
    }),
    withBody({ schema: ApiKeyRollBody }, async (ctx, body) => {
      const { overlap_minutes } = body();
      const merchant = ctx.state.merchant!;
      const rolled = await audited(
        ctx,
        async (db) => {
          const old = await findMerchantApiKey(db, merchant.merchantId, ctx.params.id!);
          if (!old) throw notFound('API key');
          assertWithinCaller(ctx.state, old.scopes, old.mode, 'scopes');
          return rollMerchantApiKey(db, old, overlap_minutes);
        },
        ({ issued, old }) => ({
          action: 'api_key.rolled',
          subject: old.id,
          detail: {
            new_api_key_id: issued.row.id,
            overlap_minutes,
            expires_at: old.expires_at?.toISOString() ?? null,
          },
        }),
      );
      ctx.status = 201;
      ctx.set('Cache-Control', 'no-store');
      ctx.body = {
        api_key: presentApiKey(rolled.issued.row),
        key: rolled.issued.key,
        previous_api_key: presentApiKey(rolled.old),
      };
    }),
  );

  router.delete(
    '/api_keys/:id',
    account('keys:write', {
      summary: 'Revoke a key: it stops working at once',
      requestParams: { path: apiKeyPath },
      responses: { ...ok('The revoked key', ApiKeyResponse), ...errors(401, 403, 404) },
    }),
    async (ctx) => {
      const merchant = ctx.state.merchant!;
      const row = await audited(
        ctx,
        async (db) => {
          const key = await findMerchantApiKey(db, merchant.merchantId, ctx.params.id!);
          if (!key) throw notFound('API key');
          assertWithinCaller(ctx.state, key.scopes, key.mode, 'scopes');
          return (await revokeMerchantApiKey(db, merchant.merchantId, key.id))!;
        },
        (revoked) => ({ action: 'api_key.revoked', subject: revoked.id, detail: { name: revoked.label } }),
      );
      ctx.body = { api_key: presentApiKey(row) };
    },
  );
}
