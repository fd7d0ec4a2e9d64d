/** The workflow calls of an onramp's `onrampLifecycle`, queued by the onramp family's steps (client side). */
import type { Database, OnrampRow } from '@checkout/db';
import type { Kysely } from 'kysely';
import { queueWorkflowCall, shown } from '../handOver/queueWorkflowCall.ts';
import { rampLifecycleOwner } from '../shared.ts';
import { onrampMemo, onrampWorkflowSummary } from '../summaries.ts';
import {
  type OnrampDeposit,
  type OnrampLifecycleInput,
  onrampDepositSignal,
  onrampWorkflowId,
  onrampWorkflowType,
} from './shared.ts';

/** The onramp's workflow input. */
export function onrampLifecycleInput(
  row: Pick<OnrampRow, 'id' | 'merchant_id' | 'user_id' | 'expires_at'>,
): OnrampLifecycleInput {
  return { onrampId: row.id, ...rampLifecycleOwner(row) };
}

/** What every call that may start the onramp's lifecycle carries: its input, memo and summary. */
function lifecycleCall(onramp: OnrampRow) {
  return {
    args: [onrampLifecycleInput(onramp)],
    memo: onrampMemo(onramp),
    ...shown(onrampWorkflowSummary(onramp)),
  };
}

/** Queues the start of the onramp's lifecycle (its expiry timer). */
export function queueOnrampStart(db: Kysely<Database>, onramp: OnrampRow): Promise<string> {
  return queueWorkflowCall(db, {
    kind: 'start',
    workflowType: onrampWorkflowType,
    workflowId: onrampWorkflowId(onramp.id),
    call: lifecycleCall(onramp),
  });
}

/** Queues a deposit notice for the onramp's lifecycle, starting it when it is not running. */
export function queueOnrampDeposit(
  db: Kysely<Database>,
  onramp: OnrampRow,
  deposit: OnrampDeposit,
): Promise<string> {
  return queueWorkflowCall(db, {
    kind: 'signal_with_start',
    workflowType: onrampWorkflowType,
    workflowId: onrampWorkflowId(onramp.id),
    call: { ...lifecycleCall(onramp), signal: { name: onrampDepositSignal.name, args: [deposit] } },
  });
}
