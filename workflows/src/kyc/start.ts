/** The workflow calls of a user's `kycOnboarding`, queued by the KYC family's steps (client side). */
import type { Database } from '@checkout/db';
import type { Kysely } from 'kysely';
import { queueWorkflowCall, shown } from '../handOver/queueWorkflowCall.ts';
import { kycMemo, kycWorkflowSummary } from '../summaries.ts';
import { type KycEvent, kycEventSignal, kycWorkflowId, kycWorkflowType } from './shared.ts';

/** The user a KYC call is about. */
type KycUser = Parameters<typeof kycWorkflowSummary>[0] & { id: string; merchant_id: string };

/** What every call that may start the user's onboarding carries: its input, memo and summary. */
function onboardingCall(user: KycUser) {
  return {
    args: [{ userId: user.id, merchantId: user.merchant_id }],
    memo: kycMemo(user),
    ...shown(kycWorkflowSummary(user)),
  };
}

/** Queues the start of the user's onboarding. */
export function queueKycStart(db: Kysely<Database>, user: KycUser): Promise<string> {
  return queueWorkflowCall(db, {
    kind: 'start',
    workflowType: kycWorkflowType,
    workflowId: kycWorkflowId(user.id),
    call: onboardingCall(user),
  });
}

/**
 * Queues a KYC event of the user (a provider's decision, a step of the KYC page) for its onboarding,
 * starting a new run when none is running.
 */
export function queueKycEvent(db: Kysely<Database>, user: KycUser, event: KycEvent): Promise<string> {
  return queueWorkflowCall(db, {
    kind: 'signal_with_start',
    workflowType: kycWorkflowType,
    workflowId: kycWorkflowId(user.id),
    call: { ...onboardingCall(user), signal: { name: kycEventSignal.name, args: [event] } },
  });
}
