/** Activities of the checkout workflow: chain reads, session progress, the resolution record, e-mails. */

import { type ChainClients, verifyPayment } from '@checkout/chain';
import type { TokenRegistry } from '@checkout/core';
import { isTestToken, percentDifference } from '@checkout/core';
import {
  claimTransaction,
  createWebhookDelivery,
  type Db,
  findExpectedPayment,
  findProductById,
  findResolvedPayment,
  findSession,
  findSessionByExpectedPayment,
  inTransaction,
  listOtherOpenSessionsOfPayer,
  listPaymentAmountReservations,
  listTransfersInto,
  presentResolvedPayment,
  recordResolvedPayment,
  releaseTransaction,
  type SecretBox,
  type StoredToken,
  sightTransfer,
  updateSession,
} from '@checkout/db';
import { customerReceipt, type Mailer, merchantNotification, type OutgoingMail } from '@checkout/mail';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { getAddress, type Hash } from 'viem';
import { performOnce } from '../effects.ts';
import { webhookMemo } from '../webhookDelivery/shared.ts';
import {
  hashTermsOf,
  matchesPayerlessSession,
  mayTakeAsFallback,
  type PayerlessTerms,
  refuseHash,
} from './matching.ts';
import type { CheckoutWorkflowStatus, RecordedResolution, TransactionFacts } from './shared.ts';

/** The event a Resolved Payment is delivered as. */
const resolvedPaymentEvent = 'resolved_payment.created';

/** What checkout activities need. */
export interface CheckoutActivityDeps {
  db: Db;
  secrets: SecretBox;
  tokens: TokenRegistry;
  chains: ChainClients;
  /** Absent when no SMTP server is configured: e-mails are then skipped (and logged). */
  mailer?: Mailer | undefined;
  checkout: { pollIntervalMs: number; scanClaimDelayMs: number; scanIntervalMs?: number };
}

/** How long one e-mail's claim is held: above the SMTP client's own timeouts. */
const mailLeaseMs = 3 * 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A transfer a session may take: where it is in the chain, its token, amount and sender. */
interface SeenTransfer {
  txHash: string;
  logIndex: number;
  blockNumber: bigint;
  token: string;
  amount: bigint;
  from: string;
}

/** Builds the checkout activities over their dependencies. */
export function createCheckoutActivities(deps: CheckoutActivityDeps) {
  const db = deps.db.kysely;

  const chainOf = (chainId: number) => {
    const chain = deps.chains.get(chainId);
    if (!chain)
      throw ApplicationFailure.nonRetryable(
        `no RPC endpoint is configured for chain ${chainId}`,
        'chain_not_configured',
      );
    return chain;
  };
  const sessionOf = async (sessionId: string) => {
    const session = await findSession(db, sessionId);
    if (!session)
      throw ApplicationFailure.nonRetryable(`checkout session ${sessionId} not found`, 'session_not_found');
    return session;
  };
  const acceptedTokens = (chainId: number) =>
    (deps.tokens.chainById(chainId)?.paymentTokens ?? []).map((t) => ({
      address: t.address,
      decimals: t.decimals,
      symbol: t.symbol,
    }));

  type Session = NonNullable<Awaited<ReturnType<typeof findSession>>>;
  type Pays = (token: string, amount: bigint, expected: bigint, decimals: number) => boolean;

  /** True when `amount` of `token` is exactly `expected` of a `decimals` token (scaled, never rounded). */
  const amountMatcher = (chainId: number, session: Session): Pays => {
    const decimalsOf = new Map(
      acceptedTokens(chainId).map((t) => [t.address.toLowerCase(), t.decimals] as const),
    );
    decimalsOf.set(session.expected_token.address.toLowerCase(), session.expected_token.decimal_count);
    return (token, amount, expected, decimals) => {
      const own = decimalsOf.get(token.toLowerCase());
      if (own === undefined) return false;
      return amount * 10n ** BigInt(decimals) === expected * 10n ** BigInt(own);
    };
  };

  /**
   * The transfers among `found` (the session's candidates, in chain order) that the session may claim: those
   * paying it exactly (its reserved amount, for a session paid from another device); when none does, the
   * payer's others, except one exactly paying another open checkout of the payer or a reserved amount.
   */
  const chooseCandidates = async <T extends SeenTransfer>(
    chainId: number,
    session: Session,
    terms: PayerlessTerms,
    found: T[],
    pays: Pays,
  ): Promise<{ exact: T[]; candidates: T[]; heldBack: boolean }> => {
    const payer = session.sender_address?.toLowerCase() ?? null;
    const expected = BigInt(session.expected_token_amount);
    const decimals = session.expected_token.decimal_count;
    const exact = found.filter((t) =>
      terms.reserved ? matchesPayerlessSession(terms, t) : pays(t.token, t.amount, expected, decimals),
    );
    if (exact.length > 0 || found.length === 0 || payer === null) {
      return { exact, candidates: exact, heldBack: false };
    }
    // No exact payment: the earliest transfer, unless it is exactly what another checkout awaits.
    const others = await listOtherOpenSessionsOfPayer(db, {
      chainId,
      receivingAddress: session.receiving_address,
      senderAddress: payer,
      exceptSessionId: session.id,
    });
    // Nor one that is exactly the amount a session paid from another device holds.
    const held = await listPaymentAmountReservations(db, {
      chainId,
      receivingAddress: session.receiving_address,
    });
    const candidates = found.filter(
      (t) =>
        !others.some((o) =>
          pays(t.token, t.amount, BigInt(o.expected_token_amount), o.expected_token.decimal_count),
        ) && mayTakeAsFallback(session.id, t, held),
    );
    // A transfer held back for another checkout may become this one's fallback once that one closes.
    return { exact, candidates, heldBack: candidates.length < found.length };
  };

  /**
   * One read of a transaction against a session: `facts` when it is final (or not found), otherwise
   * only its confirmations so far; `blockHash` is the including block to remember for reorgs.
   */
  const inspectTransaction = async (
    session: NonNullable<Awaited<ReturnType<typeof findSession>>>,
    chain: ReturnType<typeof chainOf>,
    txHash: string,
    knownBlockHash?: Hash,
  ): Promise<{ facts: TransactionFacts | null; confirmations: number; blockHash: Hash | undefined }> => {
    const expected = session.expected_token;
    const result = await verifyPayment({
      client: chain.client,
      txHash: txHash as Hash,
      receivingAddress: getAddress(session.receiving_address),
      tokens: acceptedTokens(session.chain_id),
      expectedToken: getAddress(expected.address),
      expectedAmount: BigInt(session.expected_token_amount),
      confirmations: chain.confirmations,
      ...(knownBlockHash ? { knownBlockHash } : {}),
    });
    let blockHash = result.status === 'reorged' ? undefined : knownBlockHash;
    if ('blockHash' in result && result.blockHash) blockHash = result.blockHash;
    const confirmations = 'confirmations' in result ? result.confirmations : 0;
    if (result.status === 'not_found') return { facts: { status: 'not_found' }, confirmations, blockHash };
    if (result.status === 'no_transfer')
      return { facts: { status: 'no_transfer', from: result.from }, confirmations, blockHash };
    if (result.status !== 'confirmed' && result.status !== 'reverted')
      return { facts: null, confirmations, blockHash };
    const block = await chain.client.getBlock({ blockNumber: result.blockNumber });
    const blockTimestamp = Number(block.timestamp) * 1000;
    // A hash pays only its payer's session, from the session's opening on: anyone can submit any hash.
    const refusal = refuseHash(hashTermsOf(session), {
      from: result.from,
      blockNumber: result.blockNumber,
      blockTimestamp,
      paid:
        result.status === 'confirmed' ? { token: result.receivedToken, amount: result.receivedAmount } : null,
    });
    if (refusal) {
      return { facts: { status: 'refused', from: result.from, reason: refusal }, confirmations, blockHash };
    }
    const facts: TransactionFacts =
      result.status === 'reverted'
        ? {
            status: 'reverted',
            from: result.from,
            blockNumber: result.blockNumber.toString(),
            blockTimestamp,
            receivedToken: null,
            receivedAmount: '0',
            logIndex: -1,
            swapped: false,
            amountDifference: percentDifference(BigInt(session.expected_token_amount), 0n),
          }
        : {
            status: 'confirmed',
            from: result.from,
            blockNumber: result.blockNumber.toString(),
            blockTimestamp,
            receivedToken: result.receivedToken,
            receivedAmount: result.receivedAmount.toString(),
            logIndex: result.logIndex,
            swapped: result.swapped,
            amountDifference: result.amountDifference,
          };
    return { facts, confirmations, blockHash };
  };

  return {
    /** Persists the workflow's view of the session (status, hash, error). */
    async setSessionStatus(input: {
      sessionId: string;
      status: CheckoutWorkflowStatus;
      txHash?: string | null;
      error?: string | null;
    }): Promise<void> {
      await updateSession(db, input.sessionId, {
        status: input.status,
        ...(input.txHash === undefined ? {} : { tx_hash: input.txHash }),
        ...(input.error === undefined ? {} : { error: input.error }),
      });
    },

    /**
     * Refuses a transaction the session checked: the session shows why and awaits payment again (or stays
     * expired), and its claim on the hash is given up in the same transaction, so the checkout the
     * transfer does pay can still take it.
     */
    async refuseTransaction(input: {
      sessionId: string;
      chainId: number;
      txHash: string;
      status: 'awaiting_payment' | 'expired';
      error: string;
    }): Promise<void> {
      await inTransaction(db, async (trx) => {
        await updateSession(trx, input.sessionId, {
          status: input.status,
          tx_hash: null,
          error: input.error,
        });
        await releaseTransaction(trx, input);
      });
    },

    /**
     * One look at the transaction, for the moment its hash arrives: its facts when it is already final
     * (confirmed, reverted, or paying someone else), null while it is unknown or short of confirmations
     * (then {@link awaitTransaction} polls for it).
     */
    async checkTransaction(input: {
      sessionId: string;
      chainId: number;
      txHash: string;
    }): Promise<TransactionFacts | null> {
      const session = await sessionOf(input.sessionId);
      const look = await inspectTransaction(session, chainOf(input.chainId), input.txHash);
      if (!look.facts || look.facts.status === 'not_found') {
        await updateSession(db, input.sessionId, {
          status: 'confirming',
          tx_hash: input.txHash,
          error: null,
          confirmations: look.confirmations,
        });
      } else if (look.confirmations > 0) {
        await updateSession(db, input.sessionId, { confirmations: look.confirmations });
      }
      return look.facts?.status === 'not_found' ? null : (look.facts ?? null);
    },

    /**
     * Polls the chain until the transaction is final (its confirmations reached) and reports what it
     * did. Heartbeats every poll; a reorganisation is noticed through the remembered block hash.
     */
    async awaitTransaction(input: {
      sessionId: string;
      chainId: number;
      txHash: string;
    }): Promise<TransactionFacts> {
      const session = await sessionOf(input.sessionId);
      const chain = chainOf(input.chainId);
      // The API marks submitted hashes itself; a hash the scan found is marked here.
      if (session.status !== 'confirming' || session.tx_hash !== input.txHash) {
        await updateSession(db, input.sessionId, {
          status: 'confirming',
          tx_hash: input.txHash,
          error: null,
        });
      }
      const ctx = Context.current();
      let knownBlockHash = (ctx.info.heartbeatDetails as { blockHash?: Hash } | undefined)?.blockHash;
      let notFoundSince = Date.now();
      let lastConfirmations = -1;
      // Bounded by the activity's start-to-close timeout; the loop itself also stops after a day.
      for (let polls = 0; polls < 1_000_000; polls++) {
        const look = await inspectTransaction(session, chain, input.txHash, knownBlockHash);
        knownBlockHash = look.blockHash;
        if (look.facts?.status !== 'not_found') notFoundSince = Date.now();
        if (look.confirmations !== lastConfirmations) {
          lastConfirmations = look.confirmations;
          await updateSession(db, input.sessionId, { confirmations: look.confirmations });
        }
        ctx.heartbeat(knownBlockHash ? { blockHash: knownBlockHash } : {});
        if (look.facts && look.facts.status !== 'not_found') return look.facts;
        if (look.facts && Date.now() - notFoundSince > 30 * 60_000) return look.facts;
        await sleep(deps.checkout.pollIntervalMs);
        if (ctx.cancellationSignal.aborted) throw ctx.cancellationSignal.reason;
      }
      throw new Error('gave up polling the transaction');
    },

    /**
     * Looks, among the transfers the chain's watcher recorded into the session's receiving address since it
     * opened, for the one the session takes (docs/checkout.md, "Matching rule"): the payer's transfer
     * (by the log's or the transaction's sender) of exactly the amount, else the payer's earliest one that
     * pays nothing else; any sender's transfer of a reserved amount, at once. Claims it and returns its
     * hash; `retryAt` when the best one still waits out its claim delay; neither when there is none.
     * Reads the database only: an open session costs the chain nothing.
     */
    async matchPayment(input: {
      sessionId: string;
      chainId: number;
      /** Hashes the session checked and refused. */
      exclude?: string[];
    }): Promise<{ txHash: string | null; retryAt: number | null }> {
      const session = await sessionOf(input.sessionId);
      const terms: PayerlessTerms = {
        tokenAddress: session.expected_token.address,
        amount: BigInt(session.expected_token_amount),
        reserved: session.amount_tail !== null,
      };
      const payer = session.sender_address?.toLowerCase() ?? null;
      const excluded = new Set((input.exclude ?? []).map((h) => h.toLowerCase()));
      const rows = await listTransfersInto(db, {
        chainId: input.chainId,
        to: session.receiving_address,
        tokens: [...new Set([session.expected_token.address, session.payment_token_address])],
        sinceBlock: BigInt(session.start_block),
      });
      const found = rows
        .map((r) => ({
          txHash: r.tx_hash,
          logIndex: r.log_index,
          blockNumber: BigInt(r.block_number),
          token: getAddress(r.token_address),
          amount: BigInt(r.amount),
          from: getAddress(r.from_address),
          paidByPayer: payer !== null && (r.from_address === payer || r.tx_from === payer),
        }))
        .filter(
          (t) =>
            !excluded.has(t.txHash) &&
            (t.paidByPayer ||
              (terms.reserved && matchesPayerlessSession(terms, { token: t.token, amount: t.amount }))),
        );
      const pays = amountMatcher(input.chainId, session);
      const { exact, candidates, heldBack } = await chooseCandidates(
        input.chainId,
        session,
        terms,
        found,
        pays,
      );
      for (const transfer of candidates) {
        // A reserved amount is this session's alone: no widget hash to wait for, so no claim delay.
        const delay = terms.reserved && exact.includes(transfer) ? 0 : deps.checkout.scanClaimDelayMs;
        const firstSeen = await sightTransfer(db, { chainId: input.chainId, txHash: transfer.txHash });
        if (Date.now() - firstSeen.getTime() < delay)
          return { txHash: null, retryAt: firstSeen.getTime() + delay };
        const claim = await claimTransaction(db, {
          chainId: input.chainId,
          txHash: transfer.txHash,
          sessionId: input.sessionId,
        });
        if (claim !== 'other_session') return { txHash: transfer.txHash.toLowerCase(), retryAt: null };
      }
      // Only a session whose payer's transfer is held back for another checkout looks again by itself.
      const again = deps.checkout.scanIntervalMs ?? deps.checkout.pollIntervalMs;
      return { txHash: null, retryAt: heldBack ? Date.now() + again : null };
    },

    /** Writes the Resolved Payment once, closes the session, and queues the webhook in the same transaction. */
    async recordResolution(input: {
      sessionId: string;
      txHash: string;
      facts: Extract<TransactionFacts, { status: 'confirmed' | 'reverted' }>;
      late: boolean;
    }): Promise<RecordedResolution> {
      const session = await sessionOf(input.sessionId);
      const [product, expectedPayment] = await Promise.all([
        findProductById(db, session.product_id),
        findExpectedPayment(db, session.expected_payment_id),
      ]);
      if (!product) throw ApplicationFailure.nonRetryable('product not found', 'product_not_found');
      if (!expectedPayment) {
        throw ApplicationFailure.nonRetryable('expected payment not found', 'expected_payment_not_found');
      }
      const { facts } = input;
      const received = facts.receivedToken
        ? deps.tokens.findPaymentToken(session.chain_id, facts.receivedToken)
        : deps.tokens.findPaymentToken(session.chain_id, session.payment_token_address);
      const receivedToken: StoredToken = received
        ? {
            symbol: received.symbol,
            address: received.address,
            name: received.name,
            decimal_count: received.decimals,
            blockchain: received.blockchain,
            network: received.network,
          }
        : session.expected_token;
      let webhookDeliveryId: string | null = null;
      const { resolvedPaymentId } = await recordResolvedPayment(
        db,
        {
          sessionId: session.id,
          late: input.late,
          payment: {
            id: crypto.randomUUID(),
            product_id: product.id,
            expected_payment_id: session.expected_payment_id,
            is_test: isTestToken({ network: session.expected_token.network as 'testnet' }),
            dollar_amount: expectedPayment.dollar_amount,
            metadata: expectedPayment.metadata,
            user_email: session.email,
            custom_fields: session.custom_fields,
            chain_id: session.chain_id,
            expected_token: session.expected_token,
            received_token: receivedToken,
            expected_token_amount: session.expected_token_amount,
            received_token_amount: facts.receivedAmount,
            amount_difference: facts.amountDifference,
            receiving_address: getAddress(session.receiving_address),
            sender_address: getAddress(facts.from),
            tx_id: input.txHash.toLowerCase(),
            log_index: facts.logIndex,
            tx_success: facts.status === 'confirmed',
            tx_failure: facts.status === 'reverted',
            swapped: facts.swapped,
            late: input.late,
          },
        },
        async (trx, id) => {
          if (!product.send_webhook || !product.webhook_url) return;
          const row = await findResolvedPayment(trx, id);
          if (!row) throw new Error(`the resolved payment ${id} just recorded is missing`);
          const delivery = await createWebhookDelivery(trx, {
            merchantId: product.merchant_id,
            eventType: resolvedPaymentEvent,
            subjectId: id,
            productId: product.id,
            url: product.webhook_url,
            payload: JSON.stringify(presentResolvedPayment(row, product, deps.secrets)),
          });
          webhookDeliveryId = delivery.id;
        },
      );
      return {
        resolvedPaymentId,
        webhookDeliveryId,
        ...(webhookDeliveryId && product.webhook_url
          ? { webhookMemo: webhookMemo(resolvedPaymentEvent, product.webhook_url) }
          : {}),
      };
    },

    /**
     * Sends the customer's receipt (with `send_email`) and the merchant's notification, each exactly once
     * per payment; `sent` counts the messages this call sent.
     */
    async sendPaymentEmails(input: { resolvedPaymentId: string }): Promise<{ sent: number }> {
      const row = await findResolvedPayment(db, input.resolvedPaymentId);
      if (!row)
        throw ApplicationFailure.nonRetryable('resolved payment not found', 'resolved_payment_not_found');
      const product = await findProductById(db, row.product_id);
      if (!product) throw ApplicationFailure.nonRetryable('product not found', 'product_not_found');
      if (!deps.mailer) {
        Context.current().log.warn('No SMTP server is configured: payment e-mails are not sent', {
          resolvedPaymentId: input.resolvedPaymentId,
        });
        return { sent: 0 };
      }
      const payment = presentResolvedPayment(row, product, deps.secrets);
      const chainName = deps.tokens.chainById(row.chain_id)?.name ?? `chain ${row.chain_id}`;
      // Each message is claimed before it is sent: a retried activity or workflow task that finds it
      // sent sends nothing. The Message-ID stays stable for the one case a claim is taken over (its holder
      // died mid-send), so mail systems can still drop that duplicate.
      const mailer = deps.mailer;
      const sendOnce = async (kind: 'customer_receipt' | 'merchant_notice', message: OutgoingMail) => {
        const { performed } = await performOnce(deps.db, `email:${kind}:${row.id}`, mailLeaseMs, async () => {
          await mailer.send(message);
          return { sentAt: new Date().toISOString() };
        });
        return performed ? 1 : 0;
      };
      let sent = 0;
      if (product.send_email && row.user_email) {
        const session = await findSessionByExpectedPayment(db, row.expected_payment_id);
        const mail = customerReceipt({
          payment,
          product: { name: product.name, email_body: product.email_body, tax_rate: product.tax_rate },
          chainName,
          locale: session?.locale,
        });
        sent += await sendOnce('customer_receipt', {
          to: row.user_email,
          ...mail,
          // The shopper's reply reaches the merchant, not the service's sender address.
          replyTo: product.email,
          messageId: `<${row.id}.customer@stable-checkout>`,
        });
      }
      const notice = merchantNotification({ payment, product: { name: product.name }, chainName });
      sent += await sendOnce('merchant_notice', {
        to: product.email,
        ...notice,
        messageId: `<${row.id}.merchant@stable-checkout>`,
      });
      return { sent };
    },
  };
}

/** The checkout activities' type, for `proxyActivities`. */
export type CheckoutActivities = ReturnType<typeof createCheckoutActivities>;
