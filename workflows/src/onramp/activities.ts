/**
 * Activities of `onrampLifecycle`, one factory per concern merged here: crediting deposits and expiry
 * (funding.ts), the treasury's exactly-once token delivery (delivery.ts) and unused fiat returned through the
 * bank partner (fiatRefunds.ts). Every change is written with its `onramp_update` webhook in one transaction
 * (changes.ts).
 */
import type { Hex } from 'viem';
import type { WorkerResources } from '../resources.ts';
import { type BankPartner, createSandboxBankPartner } from './bankPartner.ts';
import { createDeliveryActivities } from './delivery.ts';
import { createFiatRefundActivities } from './fiatRefunds.ts';
import { createFundingActivities } from './funding.ts';
import type { OnrampActivities } from './shared.ts';
import { createTreasury } from './treasury.ts';

/** What the onramp activities need. */
export interface OnrampActivityDeps extends Pick<WorkerResources, 'db' | 'secrets' | 'chains'> {
  ramps: { treasuryPrivateKey: Hex };
  /** The bank partner that returns unused fiat; the sandbox partner when absent. */
  bankPartner?: BankPartner;
}

/** Builds the onramp activities. */
export function createOnrampActivities(deps: OnrampActivityDeps): OnrampActivities {
  const db = deps.db.kysely;
  const treasury = createTreasury({ chains: deps.chains, privateKey: deps.ramps.treasuryPrivateKey });
  return {
    ...createFundingActivities(db, deps.secrets),
    ...createDeliveryActivities(db, deps.secrets, treasury),
    ...createFiatRefundActivities(db, deps.secrets, deps.bankPartner ?? createSandboxBankPartner()),
  };
}
