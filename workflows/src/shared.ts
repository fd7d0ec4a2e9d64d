/**
 * Names shared by workflow code, activities, the worker and the API: the task queue and the search
 * attributes the Temporal UI filters on. Safe to import inside the workflow sandbox.
 */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/**
 * What the Temporal UI shows on a workflow's page from its start (the SDK's `staticSummary`, one line, and
 * `staticDetails`): what the workflow is about, which never changes. Where it stands is shown by the
 * workflow itself ({@link Summary} and the current details, `workflows/src/showStatus.workflow.ts`).
 */
export interface WorkflowSummary {
  staticSummary: string;
  staticDetails?: string;
}

/** Task queue every checkout workflow and activity is polled from. */
export const taskQueue = 'checkout';

/** Merchant that owns the workflow's entity. */
export const MerchantId = defineSearchAttributeKey('MerchantId', SearchAttributeType.KEYWORD);
/**
 * The merchant's receiving wallet (a product's `address`, the wallet its requests name in `X-ADDRESS`), in
 * its checksummed and its lowercase spelling, so an address copied from the API, a wallet or an explorer
 * finds it: set on checkouts, their webhook deliveries and unmatched transfers.
 */
export const MerchantWallet = defineSearchAttributeKey('MerchantWallet', SearchAttributeType.KEYWORD_LIST);
/** The values of {@link MerchantWallet} for a wallet address (as stored: checksummed). */
export function merchantWallet(address: string): string[] {
  const lower = address.toLowerCase();
  return address === lower ? [address] : [address, lower];
}
/** Product a checkout sells. */
export const ProductId = defineSearchAttributeKey('ProductId', SearchAttributeType.KEYWORD);
/** Lifecycle state of a checkout session. */
export const CheckoutStatus = defineSearchAttributeKey('CheckoutStatus', SearchAttributeType.KEYWORD);
/** Bank or ledger account a ramp moves money for. */
export const AccountId = defineSearchAttributeKey('AccountId', SearchAttributeType.KEYWORD);
/** End user behind a KYC case or ramp. */
export const UserId = defineSearchAttributeKey('UserId', SearchAttributeType.KEYWORD);
/** Lifecycle state of a KYC case. */
export const KycStatus = defineSearchAttributeKey('KycStatus', SearchAttributeType.KEYWORD);
/** Lifecycle state of a fiat-to-stablecoin onramp. */
export const OnrampStatus = defineSearchAttributeKey('OnrampStatus', SearchAttributeType.KEYWORD);
/** Lifecycle state of a price quote. */
export const QuoteStatus = defineSearchAttributeKey('QuoteStatus', SearchAttributeType.KEYWORD);
/** Lifecycle state of a stablecoin-to-fiat offramp. */
export const OfframpStatus = defineSearchAttributeKey('OfframpStatus', SearchAttributeType.KEYWORD);

/**
 * What the workflow is and where it stands now, one line (`Checkout $19.99 · Phone order · resolved`): the
 * static summary with the current status, kept up to date by the workflow, for the Temporal UI's list
 * (a column) and full-text filters.
 */
export const Summary = defineSearchAttributeKey('Summary', SearchAttributeType.TEXT);

/** Every search attribute the workflows set; the dev server registers these at startup. */
export const searchAttributeKeys = [
  Summary,
  MerchantId,
  MerchantWallet,
  ProductId,
  CheckoutStatus,
  AccountId,
  UserId,
  KycStatus,
  OnrampStatus,
  QuoteStatus,
  OfframpStatus,
] as const;

/** Who a ramp's lifecycle belongs to and when it expires: the common part of a quote's and an onramp's input. */
export interface RampLifecycleOwner {
  merchantId: string;
  userId: string;
  /** ISO time at which the unfunded ramp expires. */
  expiresAt: string;
}

/** The common part of a ramp's workflow input, from its row. */
export function rampLifecycleOwner(row: {
  merchant_id: string;
  user_id: string;
  expires_at: Date;
}): RampLifecycleOwner {
  return { merchantId: row.merchant_id, userId: row.user_id, expiresAt: row.expires_at.toISOString() };
}
