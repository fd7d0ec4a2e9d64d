/** Activities of `kycOnboarding`: read a user's KYC state (with the session timeout), and store a new one with its webhook. */

import { printableText, webhookEvents } from '@checkout/core';
import {
  findUserById,
  inTransaction,
  presentUser,
  queueAccountEvent,
  writeUserKyc,
  writeUserKycStatusMessage,
} from '@checkout/db';
import { ApplicationFailure } from '@temporalio/common';
import type { WorkerResources } from '../resources.ts';
import {
  type KycActivities,
  type KycRunStart,
  type KycState,
  kycUserNotFound,
  type RecordedKyc,
  type RecordKycInput,
} from './shared.ts';

/** What the KYC activities need: with `kyc.sessionTimeoutMinutes`, how long a provider session may stay unfinished. */
export type KycActivityDeps = Pick<WorkerResources, 'db' | 'secrets'> & {
  kyc: { sessionTimeoutMinutes: number };
};

function missing(userId: string): ApplicationFailure {
  return ApplicationFailure.retryable(`user ${userId} does not exist`, kycUserNotFound);
}

/** Builds the KYC activities. */
export function createKycActivities(deps: KycActivityDeps): KycActivities {
  const db = deps.db.kysely;
  return {
    async loadKyc({ userId }): Promise<KycRunStart> {
      const user = await findUserById(db, userId);
      if (!user) throw missing(userId);
      return {
        kyc: user.kyc as KycState,
        version: user.kyc_version,
        sessionTimeoutMs: deps.kyc.sessionTimeoutMinutes * 60_000,
      };
    },

    async recordKyc({ userId, version, kyc }: RecordKycInput): Promise<RecordedKyc> {
      return inTransaction(db, async (trx) => {
        const row = await writeUserKyc(trx, userId, version, kyc);
        if (!row) {
          const current = await findUserById(trx, userId);
          if (!current) throw missing(userId);
          return {
            applied: false,
            kyc: current.kyc as KycState,
            version: current.kyc_version,
            webhookDeliveryId: null,
          };
        }
        const webhookDeliveryId = await queueAccountEvent(trx, deps.secrets, {
          merchantId: row.merchant_id,
          event: webhookEvents.kycUpdate,
          // One event per stored version, so each change is its own delivery.
          subjectId: `${userId}:kyc:${version}`,
          payload: { user: presentUser(row, deps.secrets) },
        });
        return { applied: true, kyc: row.kyc as KycState, version: row.kyc_version, webhookDeliveryId };
      });
    },

    async recordKycStepFailure({ userId, message }) {
      await writeUserKycStatusMessage(db, userId, printableText(message));
    },
  };
}
