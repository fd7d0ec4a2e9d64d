/**
 * What the Temporal UI shows of each workflow, never a person's name or e-mail address: the summary and
 * details written when the API starts it (what the money is, which never changes), and, kept current by
 * the workflow, the one line of the `Summary` search attribute (the same, with where it stands now) and
 * the current details (Markdown). The workflow rebuilds its title from its memo, which its starter writes.
 * Safe to import inside the workflow sandbox.
 */
import type { WorkflowSummary } from './shared.ts';

/** Where a workflow stands, as the UI shows it: the `Summary` search attribute and the current details. */
export interface ShownStatus {
  summary: string;
  details: string;
}

type Memo = Record<string, unknown> | undefined;

/** The title followed by the status: `Checkout $12.50 · Demo coffee · awaiting payment`. */
export function summaryLine(title: string, status: string): string {
  return `${title} · ${words(status)}`;
}

/** `awaiting_payment` → `awaiting payment`. */
function words(status: string): string {
  return status.replace(/_/g, ' ');
}

/** `awaiting_payment` → `**Awaiting payment**`. */
export function headline(status: string): string {
  const text = words(status);
  return `**${text.charAt(0).toUpperCase()}${text.slice(1)}**`;
}

/** Markdown list items, one a line. */
export function items(lines: Array<string | false | null | undefined>): string {
  return lines
    .filter((l): l is string => typeof l === 'string' && l !== '')
    .map((l) => `- ${l}`)
    .join('\n');
}

/** Workflow time in epoch milliseconds, as the UI shows it (UTC, to the second). */
export function time(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function memoText(memo: Memo, key: string): string | undefined {
  const value = memo?.[key];
  return typeof value === 'string' ? value : undefined;
}

/** One line of at most 80 characters: product names are merchants' free text. */
function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 80 ? `${flat.slice(0, 79)}…` : flat;
}

// Checkout.

/** The memo of a checkout workflow: its product's slug, the price and the product's name. */
export function checkoutMemo(checkout: { productSlug: string; dollarAmount: string; productName: string }) {
  return { slug: checkout.productSlug, dollar_amount: checkout.dollarAmount, product: checkout.productName };
}

/** `Checkout $12.50 · Demo coffee`, from the checkout's memo. */
export function checkoutTitle(memo: Memo): string {
  const amount = memoText(memo, 'dollar_amount');
  const product = memoText(memo, 'product');
  if (amount === undefined || product === undefined) return 'Checkout';
  return `Checkout $${grouped(amount)} · ${oneLine(product)}`;
}

/** `1234567.50` → `1,234,567.50`: thousands grouped in the decimal string itself (no number in between). */
function grouped(amount: string): string {
  const [whole = '', fraction] = amount.split('.');
  const digits = whole.replace(/\B(?=(\d{3})+$)/g, ',');
  return fraction === undefined ? digits : `${digits}.${fraction}`;
}

/** The summary and details of a checkout at its start: `Checkout $12.50 · Demo coffee`. */
export function checkoutWorkflowSummary(checkout: {
  dollarAmount: string;
  productName: string;
  productSlug: string;
  expectedPaymentId: string;
  sessionId: string;
  chainId: number;
  tokenSymbol: string;
}): WorkflowSummary {
  return {
    staticSummary: checkoutTitle(checkoutMemo(checkout)),
    staticDetails: [
      `product: ${checkout.productSlug}`,
      `expected payment: ${checkout.expectedPaymentId}`,
      `session: ${checkout.sessionId}`,
      `paid in: ${checkout.tokenSymbol} on chain ${checkout.chainId}`,
    ].join('\n'),
  };
}

/** What a checkout run knows, for showing it. */
export interface CheckoutShownState {
  status: string;
  /** The transaction being checked, or the one that paid. */
  txHash: string | null;
  resolvedPaymentId: string | null;
  /** Epoch milliseconds; null for a product without a timer. */
  expiresAt: number | null;
  /** Until when a payment is still taken (after the expiry: a late payment). */
  scanUntil: number;
  /** Transactions checked and refused. */
  refused: number;
  /** The payment came after the checkout's expiry: a resolved checkout shows `paid late`. */
  late: boolean;
}

/** `Checkout $12.50 · Demo coffee · resolved` (or `paid late`), and the run's transaction and payment. */
export function checkoutStatus(memo: Memo, state: CheckoutShownState): ShownStatus {
  const tx = state.txHash ? `\`${state.txHash}\`` : null;
  const payment = state.resolvedPaymentId ? `resolved payment \`${state.resolvedPaymentId}\`` : null;
  const refused = state.refused > 0 && `${state.refused} transaction(s) checked and refused`;
  const status = state.status === 'resolved' && state.late ? 'paid_late' : state.status;
  const byStatus: Record<string, Array<string | false | null>> = {
    awaiting_payment: [
      `${headline(state.status)}${state.expiresAt === null ? '' : ` until ${time(state.expiresAt)}`}`,
      refused,
    ],
    confirming: [`${headline(state.status)} transaction ${tx}`, refused],
    resolved: [`${headline(state.status)}: paid by transaction ${tx}`, payment],
    paid_late: [`${headline(status)}, after the expiry: paid by transaction ${tx}`, payment],
    failed: [`${headline(state.status)}: transaction ${tx} reverted`, payment],
    expired: [
      `${headline(state.status)}${state.expiresAt === null ? '' : ` at ${time(state.expiresAt)}`} without a payment`,
      `a payment made until ${time(state.scanUntil)} is still taken (late)`,
      refused,
    ],
    closed: [`${headline(state.status)}: the attempt was given up; it takes no payment`],
  };
  return {
    summary: summaryLine(checkoutTitle(memo), status),
    details: items(byStatus[status] ?? [headline(state.status), tx && `transaction ${tx}`, payment]),
  };
}

// Webhook delivery.

/** `Webhook resolved_payment.created → shop.example`, from the delivery's memo (`WebhookMemo`). */
export function webhookTitle(memo: Memo): string {
  const eventType = memoText(memo, 'eventType');
  const urlHost = memoText(memo, 'urlHost');
  if (eventType === undefined || urlHost === undefined) return 'Webhook delivery';
  return `Webhook ${eventType} → ${urlHost || 'invalid URL'}`;
}

/** `Webhook resolved_payment.created → shop.example` (the host only: a URL's path and query may hold secrets). */
export function webhookWorkflowSummary(delivery: {
  id: string;
  event_type: string;
  url: string;
  subject_id: string;
  redelivery_of: string | null;
}): WorkflowSummary {
  let urlHost = '';
  try {
    urlHost = new URL(delivery.url).host;
  } catch {
    // Shown as an invalid URL.
  }
  return {
    staticSummary: webhookTitle({ eventType: delivery.event_type, urlHost }),
    staticDetails: [
      `delivery: ${delivery.id}`,
      `subject: ${delivery.subject_id}`,
      ...(delivery.redelivery_of ? [`redelivery of: ${delivery.redelivery_of}`] : []),
    ].join('\n'),
  };
}

/** Where a delivery stands. */
export interface WebhookShownState {
  /** `sending`: the first attempt is being made; `failing`: an attempt failed and another will be made. */
  phase: 'sending' | 'delivered' | 'failing' | 'failed' | 'missing';
  /** Attempts made so far. */
  attempts: number;
  /** Why the last attempt failed (`HTTP 500`, a network error). */
  lastError?: string | null | undefined;
  /** Epoch milliseconds of the next attempt (failing). */
  nextAttemptAt?: number | null | undefined;
}

/** `Webhook resolved_payment.created → shop.example · failing (3 attempts)`, and when it tries next. */
export function webhookStatus(memo: Memo, state: WebhookShownState): ShownStatus {
  const attempts = `${state.attempts} attempt${state.attempts === 1 ? '' : 's'}`;
  const failure = state.lastError ? `attempt ${state.attempts} failed: ${state.lastError}` : null;
  const byPhase: Record<WebhookShownState['phase'], Array<string | null>> = {
    sending: [`${headline('sending')} attempt ${state.attempts + 1}`],
    delivered: [`${headline('delivered')} on attempt ${state.attempts}`],
    failing: [
      `${headline('failing')} after ${attempts}`,
      failure,
      state.nextAttemptAt ? `next attempt at ${time(state.nextAttemptAt)}` : null,
    ],
    failed: [`${headline('failed')} after ${attempts}; no further attempt`, failure],
    missing: [`${headline('missing')}: the delivery was never recorded; nothing is sent`],
  };
  const status =
    state.phase === 'sending' || state.phase === 'missing' ? state.phase : `${state.phase} (${attempts})`;
  return { summary: summaryLine(webhookTitle(memo), status), details: items(byPhase[state.phase]) };
}

// Onramp.

/** The memo of an onramp workflow: the fiat deposited and the tokens sent for it. */
export function onrampMemo(onramp: {
  deposit_amount: string;
  fiat_currency: string;
  destination_amount: string;
  crypto_currency: string;
}) {
  return {
    deposit_amount: onramp.deposit_amount,
    fiat_currency: onramp.fiat_currency.toUpperCase(),
    destination_amount: onramp.destination_amount,
    crypto_currency: onramp.crypto_currency.toUpperCase(),
  };
}

/** `Onramp 101.00 USD → 100.00 USDC`: the fiat deposited and the tokens sent, from the onramp's memo. */
export function onrampTitle(memo: Memo): string {
  const [deposit, fiat, destination, crypto] = [
    'deposit_amount',
    'fiat_currency',
    'destination_amount',
    'crypto_currency',
  ].map((key) => memoText(memo, key));
  if (!deposit || !fiat || !destination || !crypto) return 'Onramp';
  return `Onramp ${deposit} ${fiat} → ${destination} ${crypto}`;
}

/** `Onramp 101.00 USD → 100.00 USDC`. */
export function onrampWorkflowSummary(onramp: {
  id: string;
  destination_amount: string;
  fee: string;
  deposit_amount: string;
  fiat_currency: string;
  fiat_rails: string;
  crypto_currency: string;
  crypto_rails: string;
  chain_id: number;
}): WorkflowSummary {
  const memo = onrampMemo(onramp);
  return {
    staticSummary: onrampTitle(memo),
    staticDetails: [
      `onramp: ${onramp.id}`,
      `deposit: ${memo.deposit_amount} ${memo.fiat_currency} by ${onramp.fiat_rails} (fee ${onramp.fee} ${memo.fiat_currency})`,
      `sent: ${memo.destination_amount} ${memo.crypto_currency} on ${onramp.crypto_rails}, chain ${onramp.chain_id}`,
    ].join('\n'),
  };
}

/** `Onramp 101.00 USD → 100.00 USDC · funds received`; an unfunded onramp's expiry, a step failed for good. */
export function onrampStatus(
  memo: Memo,
  state: { status: string; expiresAt: number; failure: string | null },
): ShownStatus {
  return {
    summary: summaryLine(onrampTitle(memo), state.status),
    details: items([
      headline(state.status),
      state.status === 'initiated' && `expires at ${time(state.expiresAt)} unless the deposit arrives`,
      state.failure && `${state.failure}; the onramp goes on with what comes next`,
    ]),
  };
}

// Offramp quote.

/** The memo of a quote workflow: the token and chain it is paid in. */
export function quoteMemo(quote: { deposit_token: string; deposit_token_chain: string }) {
  return { deposit_token: quote.deposit_token.toUpperCase(), deposit_token_chain: quote.deposit_token_chain };
}

/** `Offramp quote · USDC on polygon → fiat payouts`, from the quote's memo. */
export function quoteTitle(memo: Memo): string {
  const token = memoText(memo, 'deposit_token');
  const chain = memoText(memo, 'deposit_token_chain');
  if (!token || !chain) return 'Offramp quote';
  return `Offramp quote · ${token} on ${chain} → fiat payouts`;
}

/** `Offramp quote · USDC on polygon → fiat payouts`. */
export function quoteWorkflowSummary(quote: {
  id: string;
  deposit_token: string;
  deposit_token_chain: string;
  chain_id: number;
  deposit_address: string;
  expires_at: Date;
}): WorkflowSummary {
  return {
    staticSummary: quoteTitle(quoteMemo(quote)),
    staticDetails: [
      `quote: ${quote.id}`,
      `deposit address: ${quote.deposit_address} (chain ${quote.chain_id})`,
      `expires: ${quote.expires_at.toISOString()}`,
    ].join('\n'),
  };
}

/** `Offramp quote · USDC on polygon → fiat payouts · executed`, and its offramps' statuses once known. */
export function quoteStatus(
  memo: Memo,
  state: { status: string; expiresAt: number; offramps?: Array<{ id: string; status: string }> | undefined },
): ShownStatus {
  return {
    summary: summaryLine(quoteTitle(memo), state.status),
    details: items([
      headline(state.status),
      state.status === 'open' && `expires at ${time(state.expiresAt)} unless executed`,
      ...(state.offramps ?? []).map((o) => `offramp \`${o.id}\`: ${words(o.status)}`),
    ]),
  };
}

// KYC.

/** The memo of a KYC workflow: the kind of beneficiary. */
export function kycMemo(user: { beneficiary_type?: string }) {
  return user.beneficiary_type ? { beneficiary_type: user.beneficiary_type } : {};
}

/** `KYC onboarding · individual user`, from the case's memo. */
export function kycTitle(memo: Memo): string {
  const type = memoText(memo, 'beneficiary_type');
  return `KYC onboarding · ${type ? `${type} user` : 'user'}`;
}

/** `KYC onboarding · individual user`. */
export function kycWorkflowSummary(user: { id: string; beneficiary_type?: string }): WorkflowSummary {
  return { staticSummary: kycTitle(kycMemo(user)), staticDetails: `user: ${user.id}` };
}

/** A KYC case's clearance per currency and rail. */
type KycClearance = Record<'eur' | 'usd' | 'ars', { status: string; swift_status: string }>;

/** `KYC onboarding · individual user · approved`, and each currency's clearance. */
export function kycStatus(memo: Memo, kyc: { general: { status: string } } & KycClearance): ShownStatus {
  const currencies = ['eur', 'usd', 'ars'] as const;
  return {
    summary: summaryLine(kycTitle(memo), kyc.general.status),
    details: items([
      headline(kyc.general.status),
      ...currencies.map(
        (c) => `${c.toUpperCase()}: ${words(kyc[c].status)}, SWIFT: ${words(kyc[c].swift_status)}`,
      ),
    ]),
  };
}

// Refund.

/** What a refund's title is made of (from its row, read by the workflow). */
export interface RefundShownFacts {
  /** In token units. */
  amount: string;
  tokenSymbol: string;
  resolvedPaymentId: string | null;
  unmatchedTransferId: string | null;
}

/** `Refund 7 BUSD · payment <id>` (or `· unmatched transfer <id>`): what is given back, and of what. */
function refundTitle(refund: RefundShownFacts): string {
  const subject = refund.resolvedPaymentId
    ? `payment ${refund.resolvedPaymentId}`
    : `unmatched transfer ${refund.unmatchedTransferId ?? ''}`;
  return `Refund ${refund.amount} ${oneLine(refund.tokenSymbol)} · ${subject}`;
}

/** Where a refund stands, for showing it. */
export interface RefundShownState {
  status: string;
  /** Epoch milliseconds. */
  claimExpiresAt: number;
  /** Epoch milliseconds of the reminder while it waits for an address; null once sent or past. */
  remindAt: number | null;
  txHash: string | null;
  /** While sent: the transaction's confirmations, and how many the chain needs. */
  confirmations?: { have: number; need: number } | undefined;
}

/**
 * `Refund 7 BUSD · awaiting address · payment <id>` (the workflow's start shows the same line without the
 * status: `refundSummary`, workflows/src/refund/summary.ts), and what it waits for.
 */
export function refundStatus(refund: RefundShownFacts, state: RefundShownState): ShownStatus {
  const title = refundTitle(refund);
  const cut = title.indexOf(' · ');
  const tx = state.txHash ? `\`${state.txHash}\`` : null;
  const byStatus: Record<string, Array<string | false | null>> = {
    awaiting_address: [
      `${headline(state.status)} until ${time(state.claimExpiresAt)}, then expired`,
      state.remindAt !== null && `reminder to the customer at ${time(state.remindAt)}`,
    ],
    ready_to_pay: [`${headline(state.status)}: waiting for the merchant's transfer on the chain`],
    sent: [
      `${headline(state.status)} in transaction ${tx}`,
      state.confirmations ? `${state.confirmations.have} of ${state.confirmations.need} confirmations` : null,
    ],
    confirmed: [`${headline(state.status)}: transaction ${tx}`],
    canceled: [`${headline(state.status)} by the merchant`],
    expired: [`${headline(state.status)} at ${time(state.claimExpiresAt)}: no address was given`],
  };
  return {
    summary: `${title.slice(0, cut)} · ${words(state.status)}${title.slice(cut)}`,
    details: items(byStatus[state.status] ?? [headline(state.status)]),
  };
}
