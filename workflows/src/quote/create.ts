/**
 * Creating a quote and pricing one payout (spec 2.6, 4.10; research §7). Each quote gets its own deposit
 * address, derived from the HD mnemonic at the next index of a database sequence, so no address is ever
 * handed out twice. The rate is the one price offramps are later charged (`priceOfframp`); nothing of it
 * is stored.
 */
import { randomUUID } from 'node:crypto';
import { deriveDepositAccount } from '@checkout/chain';
import {
  type ChainInfo,
  type FeeRule,
  fiatDecimals,
  maxOfframpAmount,
  parseUnits,
  priceOfframp,
  type QuoteCreateBody,
  type QuoteRateBody,
  recordInvalid,
  type TokenInfo,
} from '@checkout/core';
import {
  type Database,
  insertQuote,
  inTransaction,
  nextDepositIndex,
  type QuoteRow,
  type UserRow,
} from '@checkout/db';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { RampChains } from '../rampChains.ts';
import { queueQuoteStart } from './start.ts';

/** Deposit tokens a quote accepts: USD stablecoins, as in the research (§7, §14). */
const quoteDepositTokens = ['usdc', 'usdt'] as const;

/** What quotes are created and priced against. */
export interface QuoteRules extends RampChains {
  depositMnemonic: string;
  quoteExpiryMinutes: number;
  offrampFees: readonly FeeRule[];
  /** Fiat per token, per fiat currency. */
  fxRates: Readonly<Record<string, string>>;
}

/** The deposit token and its chain: the test network outside production, mainnet in production. */
function quoteDepositToken(
  rules: QuoteRules,
  symbol: string,
  blockchain: string,
): { chain: ChainInfo; token: TokenInfo } {
  const chain = rules.tokens.chains.find(
    (c) => c.blockchain === blockchain && c.network === rules.network && rules.hasChain(c.chainId),
  );
  const token = (quoteDepositTokens as readonly string[]).includes(symbol)
    ? chain?.paymentTokens.find((t) => t.symbol.toLowerCase() === symbol)
    : undefined;
  if (!chain) throw recordInvalid([{ path: 'quote.deposit_token_chain', message: 'is not supported' }]);
  if (!token) {
    throw recordInvalid([
      { path: 'quote.deposit_token', message: `is not supported on ${chain.blockchain}` },
    ]);
  }
  return { chain, token };
}

/** Writes the user's new quote with its own deposit address; its lifecycle starts once it is committed. */
export async function createQuote(
  db: Kysely<Database>,
  rules: QuoteRules,
  input: { user: UserRow; quote: z.infer<typeof QuoteCreateBody>['quote'] },
): Promise<QuoteRow> {
  const { user, quote } = input;
  const { chain, token } = quoteDepositToken(rules, quote.deposit_token, quote.deposit_token_chain);
  // Outside the request's transaction semantics: a sequence value is never returned, even on rollback.
  const index = await nextDepositIndex(db);
  const account = deriveDepositAccount({ mnemonic: rules.depositMnemonic, index });
  const row = {
    id: randomUUID(),
    user_id: user.id,
    merchant_id: user.merchant_id,
    deposit_token: quote.deposit_token,
    deposit_token_chain: chain.blockchain,
    chain_id: chain.chainId,
    network: rules.network,
    token_address: token.address,
    token_decimals: token.decimals,
    deposit_index: index,
    deposit_address: account.address,
    expires_at: new Date(Date.now() + rules.quoteExpiryMinutes * 60_000),
  };
  return inTransaction(db, async (trx) => {
    const created = await insertQuote(trx, row);
    await queueQuoteStart(trx, created);
    return created;
  });
}

/** One payout priced from the fiat or the token side. */
export interface QuoteRate {
  chain: ChainInfo;
  token: TokenInfo;
  rails: string;
  /** Fiat per token. */
  rate: string;
  price: ReturnType<typeof priceOfframp>;
}

/** Prices one payout as an offramp of a quote would be charged; nothing is stored. */
export function rateQuote(rules: QuoteRules, input: z.infer<typeof QuoteRateBody>['quote']): QuoteRate {
  const { chain, token } = quoteDepositToken(rules, input.deposit_token, input.deposit_token_chain);
  const rails = input.rails ?? 'local';
  const rule = rules.offrampFees.find((r) => r.currency === input.fiat_currency && r.rail === rails);
  const rate = rules.fxRates[input.fiat_currency];
  if (!rule || !rate) {
    throw recordInvalid([
      { path: 'quote.rails', message: `${rails} is not available for ${input.fiat_currency}` },
    ]);
  }
  // Priced amounts stay within what an offramp may pay out, so the answer is an exact JSON number.
  const limit = (field: 'fiat_amount' | 'deposit_token_amount', value: string | undefined) => {
    if (value !== undefined && parseUnits(value, 18) > parseUnits(maxOfframpAmount, 18)) {
      throw recordInvalid([{ path: `quote.${field}`, message: `must be at most ${maxOfframpAmount}` }]);
    }
  };
  limit('fiat_amount', input.fiat_amount);
  limit('deposit_token_amount', input.deposit_token_amount);
  let price: ReturnType<typeof priceOfframp>;
  try {
    price =
      input.fiat_amount !== undefined
        ? priceOfframp({ fiatCents: parseUnits(input.fiat_amount, fiatDecimals) }, rule, rate, token.decimals)
        : priceOfframp(
            { tokenUnits: parseUnits(input.deposit_token_amount!, token.decimals) },
            rule,
            rate,
            token.decimals,
          );
  } catch {
    throw recordInvalid([
      { path: 'quote.deposit_token_amount', message: `must have at most ${token.decimals} decimal places` },
    ]);
  }
  if (price.fiatCents <= 0n) {
    throw recordInvalid([{ path: 'quote.deposit_token_amount', message: 'does not cover the fee' }]);
  }
  return { chain, token, rails, rate, price };
}
