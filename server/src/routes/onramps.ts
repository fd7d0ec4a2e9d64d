/**
 * Onramps (spec 2.7, 4.11, 4.12; research §9): fiat in by bank transfer, tokens out from the treasury.
 * Create checks the body, the user's KYC and the supported combination (`onrampToken`, `onrampFiatRails`),
 * prices the deposit from the fee table and starts the onramp's `onrampLifecycle` workflow.
 */

import { randomBytes, randomUUID } from 'node:crypto';
import {
  ApiError,
  centsToDecimal,
  decimalToJsonNumber,
  feeCents,
  fiatDecimals,
  type Kyc,
  notFound,
  OnrampCreateBody,
  OnrampListResponse,
  OnrampResponse,
  parseUnits,
  recordInvalid,
  SandboxDepositBody,
  SandboxDepositResponse,
  type TokenInfo,
  temporalUnavailable,
  Uuid,
} from '@checkout/core';
import {
  findOnramp,
  insertOnramp,
  insertOnrampDeposit,
  listOnramps,
  type OnrampRow,
  presentOnramp,
  type UserRow,
} from '@checkout/db';
import { handDepositToWorkflow, handOnrampToWorkflow } from '@checkout/workflows';
import type { ParameterizedContext } from 'koa';
import { getAddress } from 'viem';
import { type AppDeps, type AppState, handOverDeps } from '../context.ts';
import { type Routes, withBody } from './declare.ts';
import { areaB, errors, idPath, ok, onrampPath, unavailable } from './docs.ts';
import { userOfRequest } from './users.ts';

/** Fiat rails each fiat currency is accepted on: ACH push and wire in USD, SEPA in EUR (`local` is its alias). */
export const onrampFiatRails: Readonly<Record<string, readonly string[]>> = {
  usd: ['ach_push', 'wire'],
  eur: ['sepa', 'local'],
};

/** Stablecoins an onramp can deliver. */
export const onrampCryptoCurrencies = ['usdc', 'usdt', 'busd', 'dai'] as const;

/** Bounds of `destination_amount`, in whole tokens. */
export const onrampLimits = { min: '1', max: '1000000', maxDeposit: '1000000000' } as const;

/**
 * The token an onramp delivers: `crypto_currency` on the chain named `crypto_rails`, from the token
 * registry's mainnet chains in production and its test network elsewhere, on a chain with an RPC endpoint.
 */
function onrampToken(deps: AppDeps, currency: string, rails: string): TokenInfo | undefined {
  const network = deps.config.env === 'production' ? 'mainnet' : 'testnet';
  const chain = deps.tokens.chains.find((c) => c.blockchain === rails && c.network === network);
  if (!chain || !deps.chains.has(chain.chainId)) return undefined;
  if (!(onrampCryptoCurrencies as readonly string[]).includes(currency)) return undefined;
  return chain.paymentTokens.find((t) => t.symbol.toLowerCase() === currency);
}

/** A deposit reference the user quotes in the transfer: `BV` and 12 random base-32 characters. */
function depositMessage(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  return `BV${Array.from(randomBytes(12), (b) => alphabet[b % 32]).join('')}`;
}

/** The account's onramp of the user, or a 404. */
async function onrampOfRequest(
  ctx: ParameterizedContext<AppState>,
  user: UserRow,
  id: string | undefined,
): Promise<OnrampRow> {
  if (!id || !Uuid.safeParse(id).success) throw notFound('Onramp');
  const row = await findOnramp(ctx.state.db, { merchantId: user.merchant_id, userId: user.id }, id);
  if (!row) throw notFound('Onramp');
  return row;
}

/** Registers the onramp routes on the Area B router (API key only). */
export function onrampRoutes(router: Routes, deps: AppDeps): void {
  const create = withBody({ schema: OnrampCreateBody, root: 'onramp' }, async (ctx, body) => {
    const user = await userOfRequest(ctx, ctx.params.id);
    const { onramp: input } = body();
    const kyc = user.kyc as Kyc;
    if (kyc.general.status !== 'approved') {
      throw new ApiError(
        'not_yet_passed_kyc_kyb',
        `The user has not passed KYC/KYB yet (status ${kyc.general.status})`,
      );
    }
    const errors: Array<{ path: string; message: string }> = [];
    const amount = parseUnits(input.destination_amount, fiatDecimals);
    const min = parseUnits(onrampLimits.min, fiatDecimals);
    const max = parseUnits(onrampLimits.max, fiatDecimals);
    if (amount < min || amount > max) {
      errors.push({
        path: 'onramp.destination_amount',
        message: `must be from ${onrampLimits.min} to ${onrampLimits.max}`,
      });
    }
    const token = onrampToken(deps, input.crypto_currency, input.crypto_rails);
    if (!token) {
      errors.push({
        path: 'onramp.crypto_currency',
        message: `${input.crypto_currency} on ${input.crypto_rails} is not supported`,
      });
    }
    const rails = onrampFiatRails[input.fiat_currency];
    if (!rails) errors.push({ path: 'onramp.fiat_currency', message: 'must be usd or eur' });
    else if (!rails.includes(input.fiat_rails)) {
      errors.push({
        path: 'onramp.fiat_rails',
        message: `must be one of ${rails.join(', ')} for ${input.fiat_currency}`,
      });
    }
    const feeRule = deps.config.ramps.onrampFees.find(
      (r) => r.currency === input.fiat_currency && r.rail === input.fiat_rails,
    );
    if (rails?.includes(input.fiat_rails) && !feeRule) {
      errors.push({ path: 'onramp.fiat_rails', message: 'has no configured fee and is not available' });
    }
    if (errors.length > 0 || !token || !feeRule) throw recordInvalid(errors);
    const clearance = (kyc as unknown as Record<string, { status: string } | undefined>)[input.fiat_currency];
    if (clearance && clearance.status !== 'approved') {
      throw new ApiError(
        'not_approved_for_payout_rail',
        `The user is not approved for ${input.fiat_currency} (status ${clearance.status})`,
        { errors: [{ path: 'onramp.fiat_currency', message: `is not approved (${clearance.status})` }] },
      );
    }
    // Onramps are priced at par: one fiat unit per token, plus the rail's fee (spec 1, rule 1).
    const fee = feeCents(feeRule, amount);
    const row = await insertOnramp(ctx.state.db, {
      id: randomUUID(),
      user_id: user.id,
      merchant_id: user.merchant_id,
      status: 'initiated',
      status_message: null,
      crypto_currency: input.crypto_currency,
      crypto_rails: input.crypto_rails,
      chain_id: token.chainId,
      token_address: token.address,
      token_decimals: token.decimals,
      token_no_return: token.noReturnTransfer === true,
      destination_amount: centsToDecimal(amount),
      fee: centsToDecimal(fee),
      deposit_amount: centsToDecimal(amount + fee),
      received_amount: centsToDecimal(0n),
      destination_address: getAddress(input.destination_address),
      fiat_currency: input.fiat_currency,
      fiat_rails: input.fiat_rails,
      deposit_message: depositMessage(),
      expires_at: new Date(Date.now() + deps.config.ramps.onrampExpiryMinutes * 60_000),
    });
    // The onramp stands; when Temporal is down the reconciler (or the first deposit) starts its lifecycle.
    await handOnrampToWorkflow(handOverDeps(deps), ctx.state.db, row, ctx.state.log);
    ctx.body = { onramp: presentOnramp(row, deps.config.ramps.depositBank) };
  });

  // `/onramp` is the same route under the spec's other name.
  for (const path of ['/users/:id/onramps', '/users/:id/onramp']) {
    router.post(
      path,
      areaB({
        summary:
          'Create an onramp: bank deposit instructions for fiat in, crypto out (`/onramp` also accepted)',
        requestParams: { path: idPath },
        responses: {
          ...ok('The new onramp, with deposit_instructions', OnrampResponse),
          ...errors(400, 401, 404, 409, 415, 422),
        },
      }),
      create,
    );
  }

  router.get(
    '/users/:id/onramps',
    areaB({
      summary: "List a user's onramps",
      requestParams: { path: idPath },
      responses: { ...ok('Onramps, oldest first', OnrampListResponse), ...errors(401, 404) },
    }),
    async (ctx) => {
      const user = await userOfRequest(ctx, ctx.params.id);
      const rows = await listOnramps(ctx.state.db, { merchantId: user.merchant_id, userId: user.id });
      ctx.body = { onramps: rows.map((row) => presentOnramp(row)) };
    },
  );

  router.get(
    '/users/:id/onramps/:onrampId',
    areaB({
      summary: 'Show an onramp (without deposit_instructions)',
      requestParams: { path: onrampPath },
      responses: { ...ok('The onramp', OnrampResponse), ...errors(401, 404) },
    }),
    async (ctx) => {
      const user = await userOfRequest(ctx, ctx.params.id);
      ctx.body = { onramp: presentOnramp(await onrampOfRequest(ctx, user, ctx.params.onrampId)) };
    },
  );
}

/** Registers the sandbox bank partner's deposit notification (API key only, sandbox only). */
export function onrampSandboxRoutes(router: Routes, deps: AppDeps): void {
  router.post(
    '/sandbox/users/:id/onramps/:onrampId/deposit',
    areaB({
      summary:
        "Sandbox only: the bank partner's deposit notice; stored, then credited by the onramp's workflow",
      requestParams: { path: onrampPath },
      responses: {
        ...ok('The stored deposit notice', SandboxDepositResponse),
        ...errors(400, 401, 404, 409, 415, 422),
        ...unavailable,
      },
    }),
    withBody({ schema: SandboxDepositBody, root: 'amount' }, async (ctx, body) => {
      const user = await userOfRequest(ctx, ctx.params.id);
      const row = await onrampOfRequest(ctx, user, ctx.params.onrampId);
      const { amount } = body();
      const cents = parseUnits(amount, fiatDecimals);
      if (cents <= 0n) throw recordInvalid([{ path: 'amount', message: 'must be positive' }]);
      if (cents > parseUnits(onrampLimits.maxDeposit, fiatDecimals)) {
        throw recordInvalid([{ path: 'amount', message: `must be at most ${onrampLimits.maxDeposit}` }]);
      }
      if (!deps.temporal) throw temporalUnavailable('deposits cannot be credited');
      // Stored before the workflow hears of it: a notice is never lost, even while Temporal is down.
      const stored = await insertOnrampDeposit(ctx.state.db, {
        id: randomUUID(),
        onramp_id: row.id,
        amount: centsToDecimal(parseUnits(amount, fiatDecimals)),
      });
      const deposit = { depositId: stored.id, amount };
      await handDepositToWorkflow(handOverDeps(deps), ctx.state.db, row, deposit, ctx.state.log);
      // Credited by the onramp's workflow moments later; GET the onramp or follow onramp_update.
      ctx.body = {
        deposit: { id: deposit.depositId, onramp_id: row.id, amount: decimalToJsonNumber(amount) },
      };
    }),
  );
}
