/**
 * `kycOnboarding`: one per user (id `kyc-<user id>`). Applies the KYC provider's decisions and the user's
 * session steps, arriving as signals, in order; stores each new state with its `kyc_update` webhook and
 * hands the webhook to delivery. A provider session left unfinished (`initiated`) for the worker's
 * `KYC_SESSION_TIMEOUT_MINUTES` expires into `retry_required` (`kycSessionExpiry`), stored and announced as
 * any change. Ends when the case is settled (a later signal starts a new run); a case still open continues
 * as new after 200 events or when Temporal suggests it, so its history stays short however long it lives.
 */
import {
  ActivityFailure,
  ApplicationFailure,
  condition,
  continueAsNew,
  log,
  proxyActivities,
  setHandler,
  upsertMemo,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import { unlessFinal } from '../finalFailure.ts';
import { AccountId, KycStatus, UserId } from '../shared.ts';
import { ownMemo, showStatus } from '../showStatus.workflow.ts';
import { kycStatus } from '../summaries.ts';
import { startDeliveryChild } from '../webhookDelivery/child.workflow.ts';
import {
  applyKycEvent,
  isKycSessionOpen,
  isKycSettled,
  type KycActivities,
  type KycEvent,
  type KycOnboardingInput,
  type KycOnboardingResult,
  type KycRunStart,
  type KycState,
  kycEventSignal,
  kycFailedStepMemo,
  kycSessionExpiry,
  kycStateQuery,
  kycUserNotFound,
  type LoadedKyc,
  type RecordedKyc,
  type RecordKycInput,
  sameKyc,
} from './shared.ts';

const { recordKyc, recordKycStepFailure } = proxyActivities<KycActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

// A short first read: the user row may still be in the creating request's transaction.
const { loadKyc: loadNewKyc } = proxyActivities<KycActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumAttempts: 8 },
});

// Events handled per run before the history is handed to a fresh run.
const eventsPerRun = 200;

function isMissingUser(error: unknown): boolean {
  return (
    error instanceof ActivityFailure &&
    error.cause instanceof ApplicationFailure &&
    error.cause.type === kycUserNotFound
  );
}

function describeEvent(event: KycEvent): string {
  if (!event.currency) return event.status;
  return `${event.status} (${event.currency}${event.rail === 'swift' ? ', swift' : ''})`;
}

/**
 * Stores one step. A step that can never be stored (the worker made its failure final) is noted on the
 * user, in the memo and the log, and skipped: undefined is returned and later events still apply.
 */
async function recordStep(event: KycEvent, step: RecordKycInput): Promise<RecordedKyc | undefined> {
  return unlessFinal(
    () => recordKyc(step),
    async (final) => {
      const message = `The ${describeEvent(event)} decision could not be stored: ${final.message}`;
      log.warn('a KYC step failed for good; later events still apply', {
        userId: step.userId,
        status: event.status,
        type: final.type,
        message,
      });
      upsertMemo({ [kycFailedStepMemo]: { status: event.status, type: final.type, message } });
      await unlessFinal(
        () => recordKycStepFailure({ userId: step.userId, message }),
        () => log.error('the failed KYC step could not be noted on the user', { userId: step.userId }),
      );
      return undefined;
    },
  );
}

/** Shows the case's status (`KycStatus`, the `Summary` line) and its clearances (the current details). */
function showKyc(kyc: KycState): void {
  showStatus(kycStatus(ownMemo(), kyc), [{ key: KycStatus, value: kyc.general.status }]);
}

/**
 * The next event: the first queued, else the first to arrive; the session's expiry when `expiresInMs` (how
 * long the open provider session has left) runs out first.
 */
async function nextEvent(queue: KycEvent[], expiresInMs: number | undefined): Promise<KycEvent> {
  if (queue.length === 0) {
    if (expiresInMs === undefined) await condition(() => queue.length > 0);
    else if (expiresInMs <= 0 || !(await condition(() => queue.length > 0, expiresInMs)))
      return kycSessionExpiry;
  }
  return queue.shift()!;
}

/** Applies one event to the stored state: stores the change, if any, and hands its webhook to delivery. */
async function applyEvent(userId: string, state: LoadedKyc, event: KycEvent): Promise<LoadedKyc> {
  let next = applyKycEvent(state.kyc, event);
  if (sameKyc(next, state.kyc)) return state;
  let recorded = await recordStep(event, { userId, version: state.version + 1, kyc: next });
  if (!recorded) return state;
  if (!recorded.applied) {
    // The stored state moved on outside this run: apply the event on top of it once.
    next = applyKycEvent(recorded.kyc, event);
    if (!sameKyc(next, recorded.kyc)) {
      const stored: RecordedKyc = recorded;
      recorded = (await recordStep(event, { userId, version: stored.version + 1, kyc: next })) ?? stored;
    }
  }
  showKyc(recorded.kyc);
  await startDeliveryChild(recorded.webhookDeliveryId);
  return { kyc: recorded.kyc, version: recorded.version };
}

/**
 * When the open provider session started, after `event` left the case in `kyc`: the clock restarts when the
 * user opens a session again (and after an expiry that could not be stored), and stops once the case moved on.
 */
function sessionOpenedAfter(
  kyc: KycState,
  event: KycEvent,
  openedAt: number | undefined,
): number | undefined {
  if (!isKycSessionOpen(kyc)) return undefined;
  const restarts = event === kycSessionExpiry || (event.source === 'session' && event.status === 'initiated');
  return restarts || openedAt === undefined ? Date.now() : openedAt;
}

/** The KYC case of one user. */
export async function kycOnboarding(input: KycOnboardingInput): Promise<KycOnboardingResult> {
  const queue: KycEvent[] = [...(input.pending ?? [])];
  let state: LoadedKyc | null = null;
  setHandler(kycEventSignal, (event) => {
    queue.push(event);
  });
  setHandler(kycStateQuery, () => state);
  upsertSearchAttributes([
    { key: AccountId, value: input.merchantId },
    { key: UserId, value: input.userId },
  ]);

  let start: KycRunStart;
  try {
    start = await loadNewKyc({ userId: input.userId });
  } catch (error) {
    if (isMissingUser(error)) return { userId: input.userId, kyc: null, version: 0, outcome: 'missing' };
    throw error;
  }
  state = { kyc: start.kyc, version: start.version };
  // A session found open expires from when it was opened, or, when no earlier run saw it open, from now.
  let sessionOpenedAt = isKycSessionOpen(state.kyc) ? (input.sessionOpenedAt ?? Date.now()) : undefined;
  showKyc(state.kyc);

  // A run handles a bounded number of events (fewer when Temporal finds its history long), then hands over.
  for (let handled = 0; handled < eventsPerRun && !workflowInfo().continueAsNewSuggested; handled++) {
    if (queue.length === 0 && isKycSettled(state.kyc)) break;
    const expiresIn =
      sessionOpenedAt === undefined ? undefined : sessionOpenedAt + start.sessionTimeoutMs - Date.now();
    const event = await nextEvent(queue, expiresIn);
    state = await applyEvent(input.userId, state, event);
    sessionOpenedAt = sessionOpenedAfter(state.kyc, event, sessionOpenedAt);
  }
  if (!isKycSettled(state.kyc) || queue.length > 0) {
    // Queued signals and the open session's clock travel with the new run, so none is lost in the hand-over.
    return continueAsNew<typeof kycOnboarding>({
      userId: input.userId,
      merchantId: input.merchantId,
      pending: queue,
      ...(sessionOpenedAt === undefined ? {} : { sessionOpenedAt }),
    });
  }
  return { userId: input.userId, kyc: state.kyc, version: state.version, outcome: 'settled' };
}
