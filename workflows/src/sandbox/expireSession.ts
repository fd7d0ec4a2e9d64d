/**
 * "Expire now" for a checkout session: its workflow expires it at once, as its timer would (the `expireNow`
 * Update answers once the session is expired), and the session's expiry moves to that moment.
 */
import { ApiError, temporalUnavailable } from '@checkout/core';
import { type CheckoutSessionRow, moveSessionExpiry } from '@checkout/db';
import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { checkoutWorkflowId, expireNowUpdate } from '../checkout/shared.ts';
import type { SandboxDeps } from './shared.ts';

/** Expires the session now; the moment it expired (epoch ms). */
export async function expireSessionNow(
  deps: Pick<SandboxDeps, 'db' | 'temporal'>,
  session: CheckoutSessionRow,
): Promise<number> {
  if (!deps.temporal) throw temporalUnavailable('the checkout cannot be expired');
  const at = Date.now();
  const handle = deps.temporal.workflow.getHandle(checkoutWorkflowId(session.expected_payment_id));
  try {
    await handle.executeUpdate(expireNowUpdate, { args: [at] });
  } catch (error) {
    if (error instanceof WorkflowUpdateFailedError || error instanceof WorkflowNotFoundError) {
      const reason = error.cause instanceof Error ? error.cause.message : error.message;
      throw new ApiError('conflict', `This checkout cannot expire now: ${reason}`, { cause: error });
    }
    throw error;
  }
  await moveSessionExpiry(deps.db, session.id, new Date(at));
  return at;
}
