/** Runs the schema migrations, in order, once each (the same list for PGlite and PostgreSQL). */
import type { Kysely } from 'kysely';
import { type Migration, Migrator } from 'kysely/migration';
import * as init from './migrations/0001_init.ts';
import * as checkout from './migrations/0002_checkout.ts';
import * as webhooks from './migrations/0003_webhooks.ts';
import * as users from './migrations/0004_users.ts';
import * as productListVersion from './migrations/0005_product_list_version.ts';
import * as ramps from './migrations/0006_ramps.ts';
import * as rampDurability from './migrations/0007_ramp_durability.ts';
import * as rampRefunds from './migrations/0008_ramp_refunds.ts';
import * as effects from './migrations/0009_effects.ts';
import * as kycStatusMessage from './migrations/0010_kyc_status_message.ts';
import * as sessionChangesRateLimits from './migrations/0011_session_changes_rate_limits.ts';
import * as payerlessSessions from './migrations/0012_payerless_sessions.ts';
import * as sessionLocale from './migrations/0013_session_locale.ts';
import * as chainWatch from './migrations/0014_chain_watch.ts';
import * as quoteDepositWatch from './migrations/0015_quote_deposit_watch.ts';
import * as waitingSessionsIndex from './migrations/0016_waiting_sessions_index.ts';
import * as workflowCalls from './migrations/0017_workflow_calls.ts';
import * as secretsAtRest from './migrations/0018_secrets_at_rest.ts';
import * as effectUnknownOutcomes from './migrations/0019_effect_unknown_outcomes.ts';
import * as unmatchedTransfers from './migrations/0020_unmatched_transfers.ts';
import * as paymentBlocks from './migrations/0021_payment_blocks.ts';
import * as chainWatchStatus from './migrations/0022_chain_watch_status.ts';
import * as refunds from './migrations/0023_refunds.ts';
import * as unmatchedTransferBlocks from './migrations/0024_unmatched_transfer_blocks.ts';
import * as sessionReferences from './migrations/0025_session_references.ts';
import * as undeliveredEmails from './migrations/0026_undelivered_emails.ts';
import * as refundCancelReason from './migrations/0027_refund_cancel_reason.ts';
import * as apiKeyModes from './migrations/0028_api_key_modes.ts';
import * as webhookEventSequence from './migrations/0029_webhook_event_sequence.ts';
import * as apiKeyScopesAudit from './migrations/0030_api_key_scopes_audit.ts';
import * as refundPartPayments from './migrations/0031_refund_part_payments.ts';
import * as unmatchedMailBatches from './migrations/0032_unmatched_mail_batches.ts';
import * as sessionDepositAddresses from './migrations/0033_session_deposit_addresses.ts';
import * as consoleSignIn from './migrations/0034_console_sign_in.ts';
import * as paymentSearch from './migrations/0035_payment_search.ts';
import * as unmatchedDepositAddress from './migrations/0036_unmatched_deposit_address.ts';
import * as apiAccessChanged from './migrations/0037_api_access_changed.ts';

/** Every migration, keyed by its sortable name. */
export const migrations: Record<string, Migration> = {
  '0001_init': init,
  '0002_checkout': checkout,
  '0003_webhooks': webhooks,
  '0004_users': users,
  '0005_product_list_version': productListVersion,
  '0006_ramps': ramps,
  '0007_ramp_durability': rampDurability,
  '0008_ramp_refunds': rampRefunds,
  '0009_effects': effects,
  '0010_kyc_status_message': kycStatusMessage,
  '0011_session_changes_rate_limits': sessionChangesRateLimits,
  '0012_payerless_sessions': payerlessSessions,
  '0013_session_locale': sessionLocale,
  '0014_chain_watch': chainWatch,
  '0015_quote_deposit_watch': quoteDepositWatch,
  '0016_waiting_sessions_index': waitingSessionsIndex,
  '0017_workflow_calls': workflowCalls,
  '0018_secrets_at_rest': secretsAtRest,
  '0019_effect_unknown_outcomes': effectUnknownOutcomes,
  '0020_unmatched_transfers': unmatchedTransfers,
  '0021_payment_blocks': paymentBlocks,
  '0022_chain_watch_status': chainWatchStatus,
  '0023_refunds': refunds,
  '0024_unmatched_transfer_blocks': unmatchedTransferBlocks,
  '0025_session_references': sessionReferences,
  '0026_undelivered_emails': undeliveredEmails,
  '0027_refund_cancel_reason': refundCancelReason,
  '0028_api_key_modes': apiKeyModes,
  '0029_webhook_event_sequence': webhookEventSequence,
  '0030_api_key_scopes_audit': apiKeyScopesAudit,
  '0031_refund_part_payments': refundPartPayments,
  '0032_unmatched_mail_batches': unmatchedMailBatches,
  '0033_session_deposit_addresses': sessionDepositAddresses,
  '0034_console_sign_in': consoleSignIn,
  '0035_payment_search': paymentSearch,
  '0036_unmatched_deposit_address': unmatchedDepositAddress,
  '0037_api_access_changed': apiAccessChanged,
};

/** Brings the schema to the newest version; throws on the first failing migration. */
export async function migrateToLatest(db: Kysely<unknown>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
