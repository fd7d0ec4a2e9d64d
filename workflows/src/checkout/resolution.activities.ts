/**
 * The checkout's resolution: the Resolved Payment written once (unique on chain, hash and log index) with
 * the session's and expected payment's final status and, when the product sends webhooks, its delivery; a
 * transfer the merchant attached tells its unmatched transfer's workflow.
 */
import { isTestToken, percentDifference, webhookEvents, wireTokenOf } from '@checkout/core';
import {
  createWebhookDelivery,
  findExpectedPayment,
  findProductById,
  findResolvedPayment,
  listAttachedOfTransaction,
  listTransfersOfTransactions,
  presentResolvedPayment,
  recordResolvedPayment,
  type StoredToken,
} from '@checkout/db';
import { ApplicationFailure } from '@temporalio/activity';
import { getAddress } from 'viem';
import { withQueuedCalls } from '../handOver/fromActivity.ts';
import { queueUnmatchedChanged } from '../unmatched/follow.ts';
import { webhookMemo } from '../webhookDelivery/shared.ts';
import { type CheckoutActivityDeps, checkoutLookups } from './activityDeps.ts';
import { paymentAddressOf } from './matching.ts';
import type { RecordedResolution, TransactionFacts } from './shared.ts';

/** The event a Resolved Payment is delivered as. */
const resolvedPaymentEvent = webhookEvents.resolvedPaymentCreated;

/** Builds the resolution step over its dependencies. */
export function createResolutionSteps(deps: CheckoutActivityDeps) {
  const { db, sessionOf } = checkoutLookups(deps);
  return {
    /** Writes the Resolved Payment once, closes the session, and queues the webhook in the same transaction. */
    async recordResolution(input: {
      sessionId: string;
      txHash: string;
      /** Earlier transfers of the same payment, claimed for the session: their amounts of its token add up. */
      parts?: string[];
      facts: Extract<TransactionFacts, { status: 'confirmed' | 'reverted' }>;
      late: boolean;
      /** The merchant attached the transaction (an unmatched transfer, whose workflow is told it paid). */
      attached?: boolean;
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
      const receivedToken: StoredToken = received ? wireTokenOf(received) : session.expected_token;
      // The parts were recorded by the chain's watcher from the confirmed chain; only the received token adds.
      const partRows = await listTransfersOfTransactions(db, {
        chainId: session.chain_id,
        to: paymentAddressOf(session),
        txHashes: input.parts ?? [],
      });
      const partsAmount = partRows
        .filter((r) => facts.receivedToken && r.token_address === facts.receivedToken.toLowerCase())
        .reduce((sum, r) => sum + BigInt(r.amount), 0n);
      const receivedAmount = BigInt(facts.receivedAmount) + partsAmount;
      const amountDifference =
        partsAmount === 0n
          ? facts.amountDifference
          : percentDifference(
              BigInt(session.expected_token_amount) * 10n ** BigInt(receivedToken.decimal_count),
              receivedAmount * 10n ** BigInt(session.expected_token.decimal_count),
            );
      let webhookDeliveryId: string | null = null;
      const { resolvedPaymentId } = await withQueuedCalls(db, () =>
        recordResolvedPayment(
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
              received_token_amount: receivedAmount.toString(),
              amount_difference: amountDifference,
              receiving_address: getAddress(session.receiving_address),
              sender_address: getAddress(facts.from),
              tx_id: input.txHash.toLowerCase(),
              log_index: facts.logIndex,
              tx_success: facts.status === 'confirmed',
              tx_failure: facts.status === 'reverted',
              swapped: facts.swapped,
              late: input.late,
              block_number: facts.blockNumber,
              block_hash: facts.blockHash.toLowerCase(),
            },
          },
          async (trx, id) => {
            if (input.attached) {
              await queueUnmatchedChanged(
                trx,
                await listAttachedOfTransaction(trx, { chainId: session.chain_id, txHash: input.txHash }),
              );
            }
            if (!product.send_webhook || !product.webhook_url) return;
            const row = await findResolvedPayment(trx, id);
            if (!row) throw new Error(`the resolved payment ${id} just recorded is missing`);
            const delivery = await createWebhookDelivery(trx, deps.secrets, {
              merchantId: product.merchant_id,
              eventType: resolvedPaymentEvent,
              subjectId: id,
              productId: product.id,
              url: product.webhook_url,
              payload: () => JSON.stringify(presentResolvedPayment(row, product, deps.secrets)),
            });
            webhookDeliveryId = delivery.id;
          },
        ),
      );
      return {
        resolvedPaymentId,
        webhookDeliveryId,
        ...(webhookDeliveryId && product.webhook_url
          ? { webhookMemo: webhookMemo(resolvedPaymentEvent, product.webhook_url) }
          : {}),
      };
    },
  };
}
