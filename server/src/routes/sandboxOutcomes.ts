/**
 * The sandbox's outcome moves (registered only when the sandbox is enabled): on a test network, one call
 * makes a checkout session's or a refund's outcome happen with real transactions, or mines blocks. Area A:
 * the API key and its wallet (X-ADDRESS); another wallet's session or refund is a 404, one on a live
 * network a 409. The domain is workflows/src/sandbox/; docs/sandbox.md describes each outcome.
 */
import {
  notFound,
  SandboxMineBody,
  SandboxMined,
  SandboxRefundSimulateBody,
  SandboxRefundSimulation,
  SandboxSessionSimulateBody,
  SandboxSessionSimulation,
} from '@checkout/core';
import { findMerchantSession, presentRefund } from '@checkout/db';
import {
  mineTestChain,
  type SandboxDeps,
  simulateRefundOutcome,
  simulateSessionOutcome,
} from '@checkout/workflows';
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import { type Routes, withBody } from './declare.ts';
import { areaA, errors, ok, refundPath, sessionPath, walletHeader } from './docs.ts';
import { refundOfRequest, walletScope } from './loaders.ts';

/** The chain id of a path: a decimal number. */
const chainPath = z.object({ chain_id: z.string().regex(/^[1-9]\d{0,9}$/) });

/** Registers the outcome moves on the sandbox router. */
export function sandboxOutcomeRoutes(router: Routes, deps: AppDeps): void {
  const sandbox = (): SandboxDeps => ({
    db: deps.db.kysely,
    chains: deps.chains,
    tokens: deps.tokens,
    temporal: deps.temporal?.client,
    taskQueue: deps.config.temporal.taskQueue,
    secrets: deps.secrets,
    publicBaseUrl: deps.config.publicBaseUrl,
    payerKey: deps.config.areaB.sandboxPayerKey,
  });
  const shown = { secrets: deps.secrets, publicBaseUrl: deps.config.publicBaseUrl };

  router.post(
    '/sandbox/checkout/sessions/:id/simulate',
    areaA('payments:write', {
      summary:
        "Sandbox only: make a test checkout session's outcome happen with real transactions (paid, underpaid, overpaid, paid_late, paid_twice, unmatched, expired, failed, reversed)",
      requestParams: { header: walletHeader, path: sessionPath },
      responses: {
        ...ok('What was done, and the session now', SandboxSessionSimulation),
        ...errors(400, 401, 403, 404, 409, 422, 503),
      },
    }),
    withBody({ schema: SandboxSessionSimulateBody }, async (ctx, body) => {
      const session = await findMerchantSession(ctx.state.db, walletScope(ctx.state), ctx.params.id!);
      if (!session) throw notFound('Checkout session');
      const input = body();
      const done = await simulateSessionOutcome(sandbox(), session, input);
      ctx.body = {
        outcome: input.outcome,
        transactions: done.transactions,
        removed_blocks: done.removedBlocks,
        session: done.session,
      };
    }),
  );

  router.post(
    '/sandbox/refunds/:id/simulate',
    areaA('refunds:write', {
      summary: "Sandbox only: make a test refund's outcome happen (claimed, paid, expired)",
      requestParams: { header: walletHeader, path: refundPath },
      responses: {
        ...ok('What was done, and the refund now', SandboxRefundSimulation),
        ...errors(400, 401, 403, 404, 409, 422, 503),
      },
    }),
    withBody({ schema: SandboxRefundSimulateBody }, async (ctx, body) => {
      const row = await refundOfRequest(ctx);
      const input = body();
      const done = await simulateRefundOutcome(sandbox(), row, input);
      ctx.body = {
        outcome: input.outcome,
        transactions: done.transactions,
        refund: presentRefund(done.refund, shown),
      };
    }),
  );

  router.post(
    '/sandbox/chains/:chain_id/mine',
    areaA('payments:write', {
      summary: "Sandbox only: mine blocks on a test network's dev chain",
      requestParams: { header: walletHeader, path: chainPath },
      responses: {
        ...ok('The blocks mined', SandboxMined),
        ...errors(400, 401, 403, 404, 409, 422),
      },
    }),
    withBody({ schema: SandboxMineBody }, async (ctx, body) => {
      if (!chainPath.safeParse(ctx.params).success) throw notFound('Chain');
      const chainId = Number(ctx.params.chain_id);
      const mined = await mineTestChain(sandbox(), chainId, body().blocks);
      ctx.body = { chain_id: chainId, from_block: mined.from.toString(), to_block: mined.to.toString() };
    }),
  );
}
