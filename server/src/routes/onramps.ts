/**
 * Onramps (spec 2.7, 4.11, 4.12; research §9): fiat in by bank transfer, tokens out from the treasury.
 * Create is `createOnramp` (the onramp family's checks and price), then the onramp's `onrampLifecycle`
 * workflow is started; the sandbox bank partner's deposit notices are `recordOnrampDeposit`.
 */

import {
  decimalToJsonNumber,
  OnrampCreateBody,
  OnrampListResponse,
  OnrampResponse,
  SandboxDepositBody,
  SandboxDepositResponse,
} from '@checkout/core';
import { listOnramps, presentOnramp } from '@checkout/db';
import { createOnramp, type OnrampRules, recordOnrampDeposit } from '@checkout/workflows';
import { type AppDeps, rampChains } from '../context.ts';
import { type Routes, withBody } from './declare.ts';
import { areaB, errors, ok, onrampPath, userPath } from './docs.ts';
import { listOfUser, onrampOfRequest, userOfRequest } from './loaders.ts';

/** Registers the onramp routes on the Area B router (API key only). */
export function onrampRoutes(router: Routes, deps: AppDeps): void {
  const rules: OnrampRules = {
    ...rampChains(deps),
    onrampFees: deps.config.ramps.onrampFees,
    onrampExpiryMinutes: deps.config.ramps.onrampExpiryMinutes,
  };
  const create = withBody({ schema: OnrampCreateBody, root: 'onramp' }, async (ctx, body) => {
    const user = await userOfRequest(ctx);
    const row = await createOnramp(ctx.state.db, rules, { user, onramp: body().onramp });
    ctx.body = { onramp: presentOnramp(row, deps.config.ramps.depositBank) };
  });

  // `/onramp` is the same route under the spec's other name.
  for (const path of ['/users/:id/onramps', '/users/:id/onramp']) {
    router.post(
      path,
      areaB('ramps:write', {
        summary:
          'Create an onramp: bank deposit instructions for fiat in, crypto out (`/onramp` also accepted)',
        requestParams: { path: userPath },
        responses: {
          ...ok('The new onramp, with deposit_instructions', OnrampResponse),
          ...errors(400, 401, 404, 409, 422),
        },
      }),
      create,
    );
  }

  router.get(
    '/users/:id/onramps',
    areaB('ramps:read', {
      summary: "List a user's onramps",
      requestParams: { path: userPath },
      responses: { ...ok('Onramps, oldest first', OnrampListResponse), ...errors(401, 404) },
    }),
    async (ctx) => {
      const rows = await listOfUser(ctx, listOnramps);
      ctx.body = { onramps: rows.map((row) => presentOnramp(row)) };
    },
  );

  router.get(
    '/users/:id/onramps/:onrampId',
    areaB('ramps:read', {
      summary: 'Show an onramp (without deposit_instructions)',
      requestParams: { path: onrampPath },
      responses: { ...ok('The onramp', OnrampResponse), ...errors(401, 404) },
    }),
    async (ctx) => {
      ctx.body = { onramp: presentOnramp(await onrampOfRequest(ctx)) };
    },
  );
}

/** Registers the sandbox bank partner's deposit notification (API key only, sandbox only). */
export function onrampSandboxRoutes(router: Routes): void {
  router.post(
    '/sandbox/users/:id/onramps/:onrampId/deposit',
    areaB('ramps:write', {
      summary:
        "Sandbox only: the bank partner's deposit notice; stored, then credited by the onramp's workflow",
      requestParams: { path: onrampPath },
      responses: {
        ...ok('The stored deposit notice', SandboxDepositResponse),
        ...errors(400, 401, 404, 409, 422),
      },
    }),
    withBody({ schema: SandboxDepositBody, root: 'amount' }, async (ctx, body) => {
      const row = await onrampOfRequest(ctx);
      const { amount } = body();
      const deposit = await recordOnrampDeposit(ctx.state.db, { onramp: row, amount });
      // Credited by the onramp's workflow moments later; GET the onramp or follow onramp_update.
      ctx.body = {
        deposit: { id: deposit.depositId, onramp_id: row.id, amount: decimalToJsonNumber(amount) },
      };
    }),
  );
}
