/**
 * Types, messages and the status rules of the `kycOnboarding` workflow, shared by the workflow, its
 * activities and the API that signals it. Safe to import inside the workflow sandbox.
 */
import { defineQuery, defineSignal } from '@temporalio/workflow';

/** Workflow type name, as registered from bundle.workflow.ts. */
export const kycWorkflowType = 'kycOnboarding';

/** A status a KYC provider reports (research §4), plus the sandbox-only `full_clearance`. */
export type KycDecisionStatus =
  | 'not_started'
  | 'initiated'
  | 'pending_assessment'
  | 'prechecks_completed'
  | 'application_queued'
  | 'awaiting_manual_review'
  | 'retry_required'
  | 'retry_denied'
  | 'approved'
  | 'failed'
  | 'full_clearance';

/** A currency with its own clearance. */
export type KycCurrencyCode = 'eur' | 'usd' | 'ars';

/** The KYC document stored on the user and shown in `user.kyc`. */
export interface KycState {
  general: { status: string; moderation_comment: string | null };
  eur: { status: string; swift_status: string };
  usd: { status: string; swift_status: string };
  ars: { status: string; swift_status: string };
}

/**
 * One decision or progress report about a user. `session` events come from the user's own steps on the
 * hosted page and only move a case that has not been decided; `provider` events are the provider's verdicts.
 */
export interface KycEvent {
  source: 'session' | 'provider';
  status: KycDecisionStatus;
  /** Narrows the decision to one currency's clearance. */
  currency?: KycCurrencyCode;
  /** With `currency`: `swift` sets its swift_status, `local` (default) its status. */
  rail?: 'local' | 'swift';
  moderationComment?: string | null;
}

/** Input of `kycOnboarding`. */
export interface KycOnboardingInput {
  userId: string;
  merchantId: string;
  /** Events received but not yet applied by the previous run. */
  pending?: KycEvent[];
  /**
   * When the user last opened a provider session that is still unfinished (workflow time, ms since the
   * epoch), carried into the next run so that the session's expiry does not restart.
   */
  sessionOpenedAt?: number;
}

/** Result of `kycOnboarding`: the state it ended with. */
export interface KycOnboardingResult {
  userId: string;
  kyc: KycState | null;
  version: number;
  /** `missing`: the user row never appeared. */
  outcome: 'settled' | 'missing';
}

/** Signature of the workflow function, for typed starts by name. */
export type KycOnboardingWorkflow = (input: KycOnboardingInput) => Promise<KycOnboardingResult>;

/** The stored state as the workflow loads it. */
export interface LoadedKyc {
  kyc: KycState;
  version: number;
}

/** What a run starts from: the stored state, and how long a provider session may stay unfinished. */
export interface KycRunStart extends LoadedKyc {
  /** `KYC_SESSION_TIMEOUT_MINUTES` of the worker's configuration, in milliseconds. */
  sessionTimeoutMs: number;
}

/** Input of recordKyc: the state to store as `version`. */
export interface RecordKycInput {
  userId: string;
  version: number;
  kyc: KycState;
}

/** Outcome of recordKyc; `applied` false means the stored state moved on and is returned instead. */
export interface RecordedKyc {
  applied: boolean;
  kyc: KycState;
  version: number;
  webhookDeliveryId: string | null;
}

/** Input of recordKycStepFailure: why a step could not be stored. */
export interface RecordKycStepFailureInput {
  userId: string;
  message: string;
}

/** Activities of the KYC family. */
export interface KycActivities {
  loadKyc(input: { userId: string }): Promise<KycRunStart>;
  recordKyc(input: RecordKycInput): Promise<RecordedKyc>;
  /** Shows on the user (`kyc.status_message`) why a step failed for good; the state itself stays. */
  recordKycStepFailure(input: RecordKycStepFailureInput): Promise<void>;
}

/** Error type thrown while the user row is not visible yet (its transaction may not have committed). */
export const kycUserNotFound = 'kyc_user_not_found';

/** Delivers a provider decision or a session step. */
export const kycEventSignal = defineSignal<[KycEvent]>('kycEvent');

/** The state the workflow holds. */
export const kycStateQuery = defineQuery<LoadedKyc | null>('kycState');

/** Memo key under which the Temporal UI shows the last step that failed for good. */
export { failedStepMemo as kycFailedStepMemo } from '../finalFailure.ts';

/** Workflow id of a user's onboarding: a business key, so a user never has two. */
export function kycWorkflowId(userId: string): string {
  return `kyc-${userId}`;
}

/**
 * What a provider session left unfinished for the configured time becomes: the case asks for a new session,
 * as the provider's own `retry_required` does (a session event, so it never overwrites a decision).
 */
export const kycSessionExpiry: KycEvent = {
  source: 'session',
  status: 'retry_required',
  moderationComment:
    'The KYC session expired before it was finished: open a new KYC session and complete it.',
};

/** True while the user's provider session is open and unfinished (opened, not yet submitted). */
export function isKycSessionOpen(kyc: KycState): boolean {
  return kyc.general.status === 'initiated';
}

const currencies: readonly KycCurrencyCode[] = ['eur', 'usd', 'ars'];
const undecided = new Set(['not_started', 'initiated', 'retry_required']);

const defaultComments: Partial<Record<KycDecisionStatus, string>> = {
  retry_required: 'More information is needed: open a new KYC session and complete it.',
  retry_denied: 'The application cannot be retried.',
  failed: 'The application was rejected.',
};

/**
 * The state after `event`. `approved` clears the user and the local rails of every currency;
 * `full_clearance` also clears SWIFT; a `currency` narrows a decision to that one clearance.
 */
export function applyKycEvent(current: KycState, event: KycEvent): KycState {
  const next = JSON.parse(JSON.stringify(current)) as KycState;
  if (event.source === 'session' && !undecided.has(current.general.status)) return next;
  const comment =
    event.moderationComment === undefined ? (defaultComments[event.status] ?? null) : event.moderationComment;

  if (event.currency) {
    const entry = next[event.currency];
    if (event.status === 'full_clearance') {
      entry.status = 'approved';
      entry.swift_status = 'approved';
    } else if (event.rail === 'swift') {
      entry.swift_status = event.status;
    } else {
      entry.status = event.status;
    }
    return next;
  }
  if (event.status === 'full_clearance') {
    next.general = { status: 'approved', moderation_comment: null };
    for (const c of currencies) next[c] = { status: 'approved', swift_status: 'approved' };
    return next;
  }
  next.general = { status: event.status, moderation_comment: comment };
  if (event.status === 'approved') {
    for (const c of currencies) {
      if (next[c].status !== 'failed') next[c].status = 'approved';
    }
  }
  return next;
}

/** True when nothing more is expected: rejected for good, or cleared on every currency and rail. */
export function isKycSettled(kyc: KycState): boolean {
  if (kyc.general.status === 'failed' || kyc.general.status === 'retry_denied') return true;
  return (
    kyc.general.status === 'approved' &&
    currencies.every((c) => kyc[c].status === 'approved' && kyc[c].swift_status === 'approved')
  );
}

/** True when the two states are the same. */
export function sameKyc(a: KycState, b: KycState): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
