/** What every checkout activity needs, and the lookups they share. */
import { findSession } from '@checkout/db';
import { ApplicationFailure } from '@temporalio/activity';
import type { WorkerResources } from '../resources.ts';

/** What checkout activities need. */
export interface CheckoutActivityDeps
  extends Pick<WorkerResources, 'db' | 'secrets' | 'tokens' | 'chains' | 'mailer'> {
  checkout: {
    pollIntervalMs: number;
    shortPaymentWaitMs: number;
    scanIntervalMs?: number;
  };
}

/** A session row, as activities read it. */
export type Session = NonNullable<Awaited<ReturnType<typeof findSession>>>;

/** The lookups checkout activities share: the chain's client, the session, the chain's accepted tokens. */
export function checkoutLookups(deps: CheckoutActivityDeps) {
  const db = deps.db.kysely;
  return {
    db,
    chainOf(chainId: number) {
      const chain = deps.chains.get(chainId);
      if (!chain)
        throw ApplicationFailure.nonRetryable(
          `no RPC endpoint is configured for chain ${chainId}`,
          'chain_not_configured',
        );
      return chain;
    },
    async sessionOf(sessionId: string): Promise<Session> {
      const session = await findSession(db, sessionId);
      if (!session)
        throw ApplicationFailure.nonRetryable(`checkout session ${sessionId} not found`, 'session_not_found');
      return session;
    },
    acceptedTokens(chainId: number) {
      return (deps.tokens.chainById(chainId)?.paymentTokens ?? []).map((t) => ({
        address: t.address,
        decimals: t.decimals,
        symbol: t.symbol,
      }));
    },
  };
}
