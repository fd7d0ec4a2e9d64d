/**
 * How an onramp changes, for its activities (funding.ts, delivery.ts, fiatRefunds.ts): its status moves
 * (`transitionOnramp`) or its deposits and refunds change, each with its `onramp_update` webhook queued in the
 * same transaction; a step that changed nothing hands on the webhook its first attempt queued.
 */
import { fiatDecimals, formatUnits, normalizeDecimal, parseUnits, webhookEvents } from '@checkout/core';
import {
  type Database,
  findOnrampById,
  findUnattemptedDelivery,
  type OnrampChange,
  type OnrampRow,
  type OnrampStatusValue,
  presentOnramp,
  queueAccountEvent,
  type SecretBox,
  type StoredDeposit,
  type StoredOnrampRefund,
  transitionOnramp,
  updateOnrampRefunds,
} from '@checkout/db';
import { ApplicationFailure } from '@temporalio/common';
import type { Kysely } from 'kysely';
import { type OnrampStep, onrampNotFound } from './shared.ts';

export const cents = (decimal: string) => parseUnits(normalizeDecimal(decimal), fiatDecimals);
export const money = (units: bigint) => formatUnits(units, fiatDecimals, fiatDecimals);

/** Queues the `onramp_update` of the row's current version; null without a webhook endpoint. */
async function queueUpdate(
  trx: Kysely<Database>,
  secrets: SecretBox,
  row: OnrampRow,
): Promise<string | null> {
  return queueAccountEvent(trx, secrets, {
    merchantId: row.merchant_id,
    event: webhookEvents.onrampUpdate,
    subjectId: `${row.id}:status:${row.status_version}`,
    payload: { onramp: presentOnramp(row) },
  });
}

/** Applies a status change and queues its webhook in the same transaction; null when the change lost a race. */
export async function changeStatus(
  trx: Kysely<Database>,
  secrets: SecretBox,
  id: string,
  from: OnrampStatusValue,
  change: OnrampChange,
): Promise<OnrampStep | null> {
  const row = await transitionOnramp(trx, id, from, change);
  if (!row) return null;
  return { status: row.status, webhookDeliveryId: await queueUpdate(trx, secrets, row) };
}

/**
 * Changes the onramp's deposits and refunds only (its status stays) and queues its webhook in the same
 * transaction. Throws (retryably) when the row changed since `row` was read, so the caller reads again.
 */
export async function changeRefunds(
  trx: Kysely<Database>,
  secrets: SecretBox,
  row: OnrampRow,
  change: { deposits?: StoredDeposit[]; refunds: StoredOnrampRefund[] },
): Promise<OnrampStep> {
  const updated = await updateOnrampRefunds(trx, row.id, row.status_version, change);
  if (!updated) throw ApplicationFailure.retryable(`onramp ${row.id} changed meanwhile`, 'onramp_changed');
  return { status: updated.status, webhookDeliveryId: await queueUpdate(trx, secrets, updated) };
}

/** A refund of `amount` fiat for `reason`, keyed so that the bank partner returns it once. */
export function newRefund(
  reason: StoredOnrampRefund['reason'],
  subject: string,
  depositId: string | null,
  amount: string,
): StoredOnrampRefund {
  return {
    id: `${reason}:${subject}`,
    reason,
    deposit_id: depositId,
    amount,
    status: 'pending',
    reference: null,
    message: null,
  };
}

/** The onramp, or a retryable failure while it is not visible yet (its transaction may not have committed). */
export async function loadOnrampRow(trx: Kysely<Database>, id: string): Promise<OnrampRow> {
  const row = await findOnrampById(trx, id);
  if (!row) throw ApplicationFailure.retryable(`onramp ${id} does not exist`, onrampNotFound);
  return row;
}

/**
 * The row as it is, for a step that changed nothing (a retry, or a race lost): with the webhook of the
 * row's current version when nobody attempted it yet, so a retried step hands on what its first
 * attempt queued (starting a delivery twice is harmless: its workflow id is fixed).
 */
export async function unchanged(exec: Kysely<Database>, row: OnrampRow): Promise<OnrampStep> {
  return {
    status: row.status,
    webhookDeliveryId: await findUnattemptedDelivery(
      exec,
      webhookEvents.onrampUpdate,
      `${row.id}:status:${row.status_version}`,
    ),
  };
}
