/**
 * Creating an onramp (spec 2.7, 4.11; research §9): the user's KYC, the supported combination of token,
 * chain, fiat currency and rail, the bounds of the amount, then the deposit priced at par plus the rail's fee
 * from the fee table. Every field problem is reported at once, before the KYC of the fiat currency.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  ApiError,
  centsToDecimal,
  type FeeRule,
  type FieldError,
  feeCents,
  fiatDecimals,
  type Kyc,
  type OnrampCreateBody,
  parseUnits,
  recordInvalid,
  type TokenInfo,
} from '@checkout/core';
import { type Database, insertOnramp, inTransaction, type OnrampRow, type UserRow } from '@checkout/db';
import type { Kysely } from 'kysely';
import { getAddress } from 'viem';
import type { z } from 'zod';
import type { RampChains } from '../rampChains.ts';
import { queueOnrampStart } from './start.ts';

/** Fiat rails each fiat currency is accepted on: ACH push and wire in USD, SEPA in EUR (`local` is its alias). */
const onrampFiatRails: Readonly<Record<string, readonly string[]>> = {
  usd: ['ach_push', 'wire'],
  eur: ['sepa', 'local'],
};

/** Stablecoins an onramp can deliver. */
const onrampCryptoCurrencies = ['usdc', 'usdt', 'busd', 'dai'] as const;

/** Bounds of `destination_amount`, in whole tokens. */
export const onrampLimits = { min: '1', max: '1000000', maxDeposit: '1000000000' } as const;

/** What an onramp is created against: the tokens, the chains with an RPC endpoint, fees and expiry. */
export interface OnrampRules extends RampChains {
  onrampFees: readonly FeeRule[];
  onrampExpiryMinutes: number;
}

/** One onramp as asked for. */
export type OnrampRequest = z.infer<typeof OnrampCreateBody>['onramp'];

/** The token an onramp delivers: `crypto_currency` on the chain named `crypto_rails`, on a chain with an RPC endpoint. */
function onrampToken(rules: OnrampRules, currency: string, rails: string): TokenInfo | undefined {
  const chain = rules.tokens.chains.find((c) => c.blockchain === rails && c.network === rules.network);
  if (!chain || !rules.hasChain(chain.chainId)) return undefined;
  if (!(onrampCryptoCurrencies as readonly string[]).includes(currency)) return undefined;
  return chain.paymentTokens.find((t) => t.symbol.toLowerCase() === currency);
}

/** A deposit reference the user quotes in the transfer: `BV` and 12 random base-32 characters. */
function depositMessage(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  return `BV${Array.from(randomBytes(12), (b) => alphabet[b % 32]).join('')}`;
}

/** Checks, prices and writes the user's onramp; the row written (its lifecycle is not started yet). */
export async function createOnramp(
  db: Kysely<Database>,
  rules: OnrampRules,
  input: { user: UserRow; onramp: OnrampRequest },
): Promise<OnrampRow> {
  const { user, onramp } = input;
  const kyc = user.kyc as Kyc;
  if (kyc.general.status !== 'approved') {
    throw new ApiError(
      'not_yet_passed_kyc_kyb',
      `The user has not passed KYC/KYB yet (status ${kyc.general.status})`,
    );
  }
  const errors: FieldError[] = [];
  const amount = parseUnits(onramp.destination_amount, fiatDecimals);
  const min = parseUnits(onrampLimits.min, fiatDecimals);
  const max = parseUnits(onrampLimits.max, fiatDecimals);
  if (amount < min || amount > max) {
    errors.push({
      path: 'onramp.destination_amount',
      message: `must be from ${onrampLimits.min} to ${onrampLimits.max}`,
    });
  }
  const token = onrampToken(rules, onramp.crypto_currency, onramp.crypto_rails);
  if (!token) {
    errors.push({
      path: 'onramp.crypto_currency',
      message: `${onramp.crypto_currency} on ${onramp.crypto_rails} is not supported`,
    });
  }
  const rails = onrampFiatRails[onramp.fiat_currency];
  if (!rails) errors.push({ path: 'onramp.fiat_currency', message: 'must be usd or eur' });
  else if (!rails.includes(onramp.fiat_rails)) {
    errors.push({
      path: 'onramp.fiat_rails',
      message: `must be one of ${rails.join(', ')} for ${onramp.fiat_currency}`,
    });
  }
  const feeRule = rules.onrampFees.find(
    (r) => r.currency === onramp.fiat_currency && r.rail === onramp.fiat_rails,
  );
  if (rails?.includes(onramp.fiat_rails) && !feeRule) {
    errors.push({ path: 'onramp.fiat_rails', message: 'has no configured fee and is not available' });
  }
  if (errors.length > 0 || !token || !feeRule) throw recordInvalid(errors);
  const clearance = (kyc as unknown as Record<string, { status: string } | undefined>)[onramp.fiat_currency];
  if (clearance && clearance.status !== 'approved') {
    throw new ApiError(
      'not_approved_for_payout_rail',
      `The user is not approved for ${onramp.fiat_currency} (status ${clearance.status})`,
      { errors: [{ path: 'onramp.fiat_currency', message: `is not approved (${clearance.status})` }] },
    );
  }
  // Onramps are priced at par: one fiat unit per token, plus the rail's fee (spec 1, rule 1).
  const fee = feeCents(feeRule, amount);
  const row = {
    id: randomUUID(),
    user_id: user.id,
    merchant_id: user.merchant_id,
    status: 'initiated',
    status_message: null,
    crypto_currency: onramp.crypto_currency,
    crypto_rails: onramp.crypto_rails,
    chain_id: token.chainId,
    token_address: token.address,
    token_decimals: token.decimals,
    token_no_return: token.noReturnTransfer === true,
    destination_amount: centsToDecimal(amount),
    fee: centsToDecimal(fee),
    deposit_amount: centsToDecimal(amount + fee),
    received_amount: centsToDecimal(0n),
    destination_address: getAddress(onramp.destination_address),
    fiat_currency: onramp.fiat_currency,
    fiat_rails: onramp.fiat_rails,
    deposit_message: depositMessage(),
    expires_at: new Date(Date.now() + rules.onrampExpiryMinutes * 60_000),
  } as const;
  // Its lifecycle (the expiry timer) is started once the onramp is committed.
  return inTransaction(db, async (trx) => {
    const created = await insertOnramp(trx, row);
    await queueOnrampStart(trx, created);
    return created;
  });
}
