/**
 * The one-line summaries and details the Temporal UI shows for each workflow, written when the API
 * starts it: what the money is and where it stands, never a person's name or e-mail address.
 */
import type { WorkflowSummary } from './shared.ts';

/** `Checkout $12.50 · Demo coffee · awaiting payment`. */
export function checkoutWorkflowSummary(checkout: {
  dollarAmount: string;
  productName: string;
  status: string;
  productSlug: string;
  expectedPaymentId: string;
  sessionId: string;
  chainId: number;
  tokenSymbol: string;
}): WorkflowSummary {
  return {
    staticSummary: `Checkout $${checkout.dollarAmount} · ${oneLine(checkout.productName)} · ${checkout.status.replace(/_/g, ' ')}`,
    staticDetails: [
      `product: ${checkout.productSlug}`,
      `expected payment: ${checkout.expectedPaymentId}`,
      `session: ${checkout.sessionId}`,
      `paid in: ${checkout.tokenSymbol} on chain ${checkout.chainId}`,
    ].join('\n'),
  };
}

/** `Webhook resolved_payment.created → shop.example` (the host only: a URL's path and query may hold secrets). */
export function webhookWorkflowSummary(delivery: {
  id: string;
  event_type: string;
  url: string;
  subject_id: string;
  redelivery_of: string | null;
}): WorkflowSummary {
  let host: string;
  try {
    host = new URL(delivery.url).host;
  } catch {
    host = 'invalid URL';
  }
  return {
    staticSummary: `Webhook ${delivery.event_type} → ${host}`,
    staticDetails: [
      `delivery: ${delivery.id}`,
      `subject: ${delivery.subject_id}`,
      ...(delivery.redelivery_of ? [`redelivery of: ${delivery.redelivery_of}`] : []),
    ].join('\n'),
  };
}

/** `Onramp 100.00 USD → USDC`. */
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
  const fiat = onramp.fiat_currency.toUpperCase();
  return {
    staticSummary: `Onramp ${onramp.destination_amount} ${fiat} → ${onramp.crypto_currency.toUpperCase()}`,
    staticDetails: [
      `onramp: ${onramp.id}`,
      `deposit: ${onramp.deposit_amount} ${fiat} by ${onramp.fiat_rails} (fee ${onramp.fee} ${fiat})`,
      `sent on: ${onramp.crypto_rails}, chain ${onramp.chain_id}`,
    ].join('\n'),
  };
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
    staticSummary: `Offramp quote · ${quote.deposit_token.toUpperCase()} on ${quote.deposit_token_chain} → fiat payouts`,
    staticDetails: [
      `quote: ${quote.id}`,
      `deposit address: ${quote.deposit_address} (chain ${quote.chain_id})`,
      `expires: ${quote.expires_at.toISOString()}`,
    ].join('\n'),
  };
}

/** `KYC onboarding · individual user`. */
export function kycWorkflowSummary(user: { id: string; beneficiary_type?: string }): WorkflowSummary {
  return {
    staticSummary: `KYC onboarding · ${user.beneficiary_type ? `${user.beneficiary_type} user` : 'user'}`,
    staticDetails: `user: ${user.id}`,
  };
}

/** One line of at most 80 characters: product names are merchants' free text. */
function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 80 ? `${flat.slice(0, 79)}…` : flat;
}
