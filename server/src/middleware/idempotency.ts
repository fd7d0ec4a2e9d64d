/**
 * `Idempotency-Key` on POSTs: the key is claimed inside the same transaction as the handler's
 * writes, so a retry either replays the stored response or runs once; never twice, never lost. The stored
 * response is encrypted (the repository seals it).
 *
 * A route whose effect must be committed before it answers (it waits for the worker to carry it out) declares
 * `x-idempotency: claim_first`: its key is claimed and committed first, the handler runs outside any
 * transaction, and its success is stored after it (a failure gives the key back). Holding a transaction open
 * across the wait would hide the effect from the worker, and on the embedded database (one connection) would
 * stop every other request until it ended.
 */
import { createHash } from 'node:crypto';
import { ApiError } from '@checkout/core';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  type IdempotencyClaim,
  releaseIdempotencyKey,
  type SecretBox,
} from '@checkout/db';
import type { Middleware } from 'koa';
import type { AppState } from '../context.ts';

const keyPattern = /^[\x21-\x7e]{1,255}$/;

/** Handles the header for the route it wraps; `scope` separates tenants; `secrets` seals the stored responses. */
export function idempotency(scope: (state: AppState) => string, secrets: SecretBox): Middleware<AppState> {
  return async (ctx, next) => {
    const key = ctx.get('idempotency-key');
    if (ctx.method !== 'POST' || key === '') return next();
    if (!keyPattern.test(key)) {
      throw new ApiError('invalid_header', 'Idempotency-Key must be 1 to 255 visible ASCII characters', {
        errors: [{ path: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters' }],
      });
    }
    const requestHash = createHash('sha256')
      .update(ctx.state.rawBody ?? Buffer.alloc(0))
      .digest('hex');
    const id = { scope: scope(ctx.state), key };
    const claimInput = { ...id, method: ctx.method, path: ctx.path, requestHash };
    const root = ctx.state.db;
    let replay: { status: number; body: string } | undefined;
    if (ctx.state.claimFirst) {
      const claim = await claimIdempotencyKey(root, secrets, claimInput);
      if (claim.state === 'replay') replay = claim;
      else {
        refuseUnclaimed(claim);
        try {
          await next();
        } catch (error) {
          await releaseIdempotencyKey(root, id);
          throw error;
        }
        if (ctx.status < 200 || ctx.status >= 300) await releaseIdempotencyKey(root, id);
        else
          await completeIdempotencyKey(root, secrets, {
            ...id,
            status: ctx.status,
            body: JSON.stringify(ctx.body),
          });
      }
    } else {
      try {
        await root.transaction().execute(async (trx) => {
          const claim = await claimIdempotencyKey(trx, secrets, claimInput);
          if (claim.state === 'replay') {
            replay = claim;
            throw new Rollback();
          }
          refuseUnclaimed(claim);
          ctx.state.db = trx;
          await next();
          // Only successes are kept: a failed request leaves nothing, so the client may fix and retry it.
          if (ctx.status < 200 || ctx.status >= 300) throw new Rollback();
          await completeIdempotencyKey(trx, secrets, {
            ...id,
            status: ctx.status,
            body: JSON.stringify(ctx.body),
          });
        });
      } catch (error) {
        if (!(error instanceof Rollback)) throw error;
      } finally {
        ctx.state.db = root;
      }
    }
    if (replay) {
      ctx.status = replay.status;
      ctx.type = 'application/json';
      ctx.set('Idempotent-Replayed', 'true');
      ctx.body = replay.body;
    }
  };
}

class Rollback {}

/** Refuses a key used with another request, or one whose first request is still running. */
function refuseUnclaimed(claim: IdempotencyClaim): void {
  if (claim.state === 'mismatch') {
    throw new ApiError('idempotency_key_mismatch', 'This Idempotency-Key was used with a different request', {
      errors: [{ path: 'Idempotency-Key', message: 'was used with a different request' }],
    });
  }
  if (claim.state === 'in_progress') {
    throw new ApiError('idempotency_key_in_use', 'A request with this Idempotency-Key is still in progress');
  }
}
