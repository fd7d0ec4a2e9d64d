/**
 * Opening a shopper's session (the public `POST /api/v1/checkout/:slug/sessions`): the body checked against
 * the product, the chain's head asked (briefly) before anything is written, the expected payment and its
 * session written together — with its reference, the hash of its opener's secret, a reserved exact amount
 * and the start of its `checkoutSession` workflow queued — in one transaction. Repeating it for the same
 * expected payment reuses its session and workflow; only the opener's secret changes that session.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { type ChainClient, type ChainClients, depositAddressOf } from '@checkout/chain';
import {
  ApiError,
  amountCandidates,
  type CheckoutSessionCreateBody,
  normalizeDecimal,
  notFound,
  parseUnits,
  recordInvalid,
  type TokenRegistry,
  temporalUnavailable,
} from '@checkout/core';
import {
  type CheckoutSessionRow,
  type Database,
  type ExpectedPaymentRow,
  findChainWatch,
  findExpectedPayment,
  findSessionByExpectedPayment,
  insertExpectedPayment,
  inTransaction,
  type ProductWithAddress,
  releasePaymentAmounts,
  reservePaymentAmount,
  setSessionReservedAmount,
  storedTokenOf,
  upsertSession,
} from '@checkout/db';
import type { Client } from '@temporalio/client';
import type { Kysely } from 'kysely';
import { type Address, getAddress } from 'viem';
import type { z } from 'zod';
import { chainWatcherWorkflowId, payerlessSessionOpenedSignal } from '../chainWatcher/shared.ts';
import { queueWorkflowCall, shown } from '../handOver/queueWorkflowCall.ts';
import { CheckoutStatus, MerchantId, MerchantWallet, merchantWallet, ProductId, Summary } from '../shared.ts';
import { checkoutMemo, checkoutTitle, checkoutWorkflowSummary, summaryLine } from '../summaries.ts';
import { clientSecretHash, isOpenerSecret, newClientSecret } from './openerSecret.ts';
import { type CheckoutSessionInput, checkoutWorkflowId } from './shared.ts';

/** What opening a session needs. */
export interface OpenSessionDeps {
  db: Kysely<Database>;
  tokens: TokenRegistry;
  chains: ChainClients;
  /** Undefined when the service runs without Temporal: sessions cannot be opened then. */
  temporal: Client | undefined;
  taskQueue: string;
  checkout: SessionWindows;
}

/** A session's life without a timer, and the grace after its end during which it may still be paid. */
export interface SessionWindows {
  sessionTtlMinutes: number;
  graceMinutes: number;
}

/** The session opened (or found, when the shopper's expected payment has one). */
export interface OpenedSession {
  session: CheckoutSessionRow;
  expected: ExpectedPaymentRow;
  /** The session was opened by this call (not one opened before and reused). */
  created: boolean;
  /** The opener's secret: new when the session was opened, the one given when it proved the opener; else null. */
  clientSecret: string | null;
}

/** Until when a session's workflow looks for its payment (its reserved amount is held as long). */
export function scanWindowEnd(windows: SessionWindows, expiresAt: Date | null, createdAt: Date): number {
  return (
    (expiresAt?.getTime() ?? createdAt.getTime() + windows.sessionTtlMinutes * 60_000) +
    windows.graceMinutes * 60_000
  );
}

/**
 * Reserves an exact amount of the product's token no other open session paying the same address holds: for
 * a wallet session the price itself when it is free (else the price plus a tail; none when every one is
 * held: the reference alone then attributes its payment), for a session paid from another device always
 * the price plus a tail (it must have one).
 */
async function reserveAmount(
  trx: Kysely<Database>,
  product: ProductWithAddress,
  sessionId: string,
  reservedUntil: Date,
  price: bigint,
  payerless: boolean,
): Promise<{ amount: bigint; tail: bigint } | null> {
  const tails = amountCandidates(price, product.token_decimals).map((c) => c.amount);
  const candidates = payerless ? tails : [price, ...tails];
  const amount = await reservePaymentAmount(trx, {
    chainId: product.chain_id,
    receivingAddress: product.address,
    tokenAddress: product.token_address,
    sessionId,
    reservedUntil,
    candidates,
  });
  if (amount === null) {
    if (!payerless) return null;
    throw new ApiError(
      'service_unavailable',
      'Every amount for paying this price from another device is taken by an open checkout; pay from a browser wallet or retry later',
    );
  }
  return { amount, tail: amount - price };
}

/** Opens the shopper's session of the product, or refuses it with the documented error. */
export async function openCheckoutSession(
  deps: OpenSessionDeps,
  product: ProductWithAddress,
  body: z.infer<typeof CheckoutSessionCreateBody>,
  /** The `X-Client-Secret` the request carried: only the session's opener changes an existing session. */
  givenSecret?: string,
): Promise<OpenedSession> {
  if (!product.active) throw new ApiError('product_inactive', 'This checkout is not active');
  const chain = deps.chains.get(product.chain_id);
  if (!chain) {
    throw new ApiError(
      'service_unavailable',
      `Payments on ${product.token_blockchain} (${product.token_network}) are unavailable: no RPC endpoint is configured`,
    );
  }
  const temporal = deps.temporal;
  if (!temporal) throw temporalUnavailable('checkouts cannot be opened');

  const errors: Array<{ path: string; message: string }> = [];
  const payToken = deps.tokens.findPaymentToken(product.chain_id, body.token_address);
  const isProductToken = body.token_address.toLowerCase() === product.token_address.toLowerCase();
  // Without a payer the shopper pays from another device: a plain transfer of the product's token.
  const payerless = body.sender_address == null;
  if (payerless && !isProductToken) {
    errors.push({
      path: 'token_address',
      message: `must be the product's token ${product.token_address} when no sender_address is given`,
    });
  } else if (!isProductToken && !(product.swappable && payToken)) {
    errors.push({
      path: 'token_address',
      message: product.swappable
        ? 'must be a stablecoin accepted on this chain'
        : `must be the product's token ${product.token_address}`,
    });
  }
  for (const field of product.custom_fields) {
    if (!body.custom_fields[field]?.trim())
      errors.push({ path: `custom_fields.${field}`, message: 'is required' });
  }
  for (const field of Object.keys(body.custom_fields)) {
    if (!product.custom_fields.includes(field))
      errors.push({ path: `custom_fields.${field}`, message: 'is not asked by this product' });
  }
  if (body.dollar_amount !== undefined && !product.open_amount) {
    errors.push({
      path: 'dollar_amount',
      message: 'is set by the merchant for this product: give expected_payment_id',
    });
  }
  if (errors.length > 0) throw recordInvalid(errors);

  const found = body.expected_payment_id
    ? await findExpectedPayment(deps.db, body.expected_payment_id)
    : undefined;
  if (body.expected_payment_id && (!found || found.product_id !== product.id))
    throw notFound('Expected payment');
  const expectedToken = storedTokenOf(product);
  // Where its look starts, read before anything is written: a chain never seen leaves no row behind.
  const startBlock = await openingBlock(deps.db, chain.client, product);
  const depositFactory = payerless ? chain.depositFactory : undefined;
  // The shopper's expected payment and its session are written together or not at all.
  const { expected, session, created, clientSecret } = await inTransaction(deps.db, async (trx) => {
    const expected =
      found ??
      (await insertExpectedPayment(trx, {
        id: randomUUID(),
        merchant_id: product.merchant_id,
        product_id: product.id,
        dollar_amount: body.dollar_amount!,
        metadata: null,
        customer_email: body.email,
        source: 'shopper',
      }));
    const now = Date.now();
    const expiresAt = product.expires_in_minutes ? new Date(now + product.expires_in_minutes * 60_000) : null;
    const price = parseUnits(normalizeDecimal(expected.dollar_amount), product.token_decimals);
    const sessionId = randomUUID();
    const current = found ? await findSessionByExpectedPayment(trx, expected.id) : undefined;
    const opener = current !== undefined && isOpenerSecret(current, givenSecret);
    const reference = current?.reference ?? randomBytes(32).toString('hex');
    const depositAddress = await depositAddressFor(depositFactory, product, reference);
    // Every session holds an exact amount no other open session paying this address and token holds,
    // reserved until its scan window ends: a transfer of exactly that amount pays it, whoever sends it and
    // whatever its input (a wallet that drops the reference). A session opened before gets one only from
    // its opener.
    let reserved: { amount: bigint; tail: bigint } | null = null;
    // A wallet session turned to another device trades the bare price for a tail of its own: a phone pays by
    // its amount alone, which a plain payment of the price must not be.
    const bare =
      current !== undefined && (current.amount_tail === null || BigInt(current.amount_tail) === 0n);
    const reservable =
      depositAddress === null &&
      (!current ||
        (opener &&
          current.status === 'awaiting_payment' &&
          !current.tx_hash &&
          (current.amount_tail === null || (payerless && bare))));
    if (reservable) {
      if (current && current.amount_tail !== null) await releasePaymentAmounts(trx, current.id);
      const holder = current?.id ?? sessionId;
      const windowEnd = scanWindowEnd(
        deps.checkout,
        current ? current.expires_at : expiresAt,
        current ? current.created_at : new Date(now),
      );
      reserved = await reserveAmount(trx, product, holder, new Date(windowEnd), price, payerless);
      if (current && reserved) await setSessionReservedAmount(trx, { sessionId: current.id, ...reserved });
    }
    const newSecret = newClientSecret();
    const opened = await upsertSession(
      trx,
      {
        id: sessionId,
        expected_payment_id: expected.id,
        product_id: product.id,
        merchant_id: product.merchant_id,
        email: body.email,
        custom_fields: body.custom_fields,
        sender_address: body.sender_address ?? null,
        locale: body.locale ?? null,
        payment_token_address: payToken?.address ?? product.token_address,
        chain_id: product.chain_id,
        expected_token: expectedToken,
        expected_token_amount: (reserved?.amount ?? price).toString(),
        amount_tail: reserved?.tail.toString() ?? null,
        receiving_address: product.address,
        reference,
        deposit_address: depositAddress,
        client_secret_hash: clientSecretHash(newSecret),
        required_confirmations: chain.confirmations,
        // The first block mined after the session opened: a scan never claims a transfer from before it.
        start_block: startBlock.toString(),
        expires_at: expiresAt,
      },
      opener && givenSecret ? clientSecretHash(givenSecret) : null,
    );
    // Another request opened the session first: the amount reserved for this one goes back.
    if (!opened.created && reserved && !current) await releasePaymentAmounts(trx, sessionId);
    // The session's workflow is started once this commits (the dispatcher), or by its first hash.
    if (opened.created) {
      const symbol = payToken?.symbol ?? product.token_symbol;
      await queueCheckoutStart(trx, deps.checkout, product, expected, opened.session, symbol);
      await queuePayerlessWake(trx, deps.taskQueue, opened.session);
    }
    const clientSecret = opened.created ? newSecret : opened.opener ? (givenSecret ?? null) : null;
    return { expected, session: opened.session, created: opened.created, clientSecret };
  });
  return { session, expected, created, clientSecret };
}

/**
 * On a chain in `deposit_address` mode (its factory given), a session paid from another device gets an
 * address of its own, which pays it whatever the amount, so it needs no reserved amount: the CREATE2 address
 * of its forwarder to the product's receiving address (lowercase). Null otherwise.
 */
async function depositAddressFor(
  factory: Address | undefined,
  product: ProductWithAddress,
  reference: string,
): Promise<string | null> {
  if (!factory) return null;
  const destination = getAddress(product.address);
  return (await depositAddressOf({ factory, destination, reference: `0x${reference}` })).toLowerCase();
}

/**
 * The first block a session counts transfers from: the one after the chain's head. The head is asked, but
 * opening waits for it only briefly when the chain's watcher has seen the chain: a slow or failing provider
 * then leaves the head the watcher last saw (up to a tick old), and a hash's block time still tells a
 * transfer from before the opening (`minedBeforeOpening`). Only a chain no watcher has read yet makes
 * opening wait for (or fail on) the provider.
 */
async function openingBlock(
  db: Kysely<Database>,
  client: ChainClient['client'],
  product: ProductWithAddress,
): Promise<bigint> {
  const live = client.getBlockNumber({ cacheTime: 0 }).catch(() => undefined);
  const watched = await findChainWatch(db, product.chain_id);
  let timer: NodeJS.Timeout | undefined;
  const head = await Promise.race([
    live,
    new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), watched ? headWaitMs : headLookupTimeoutMs);
    }),
  ]).finally(() => clearTimeout(timer));
  if (head === undefined && !watched) {
    throw new ApiError(
      'service_unavailable',
      `The RPC endpoint of ${product.token_blockchain} (${product.token_network}) cannot be reached; retry later`,
    );
  }
  const seen = watched ? BigInt(watched.head_block) : -1n;
  return (head !== undefined && head > seen ? head : seen) + 1n;
}

/** How long opening a session waits for the chain's head when the watcher has seen the chain. */
const headWaitMs = 500;
/** How long opening a session on a chain no watcher has read yet waits for the chain's head. */
const headLookupTimeoutMs = 3_000;

/**
 * How long after opening a session with a payer's wallet its look first reads what was recorded before its run
 * started (workflows/src/checkout/look.workflow.ts): its element sends the hash, and every transfer recorded
 * once the run exists signals it at once, so that read only finds a payment made while the run was not
 * started yet (Temporal away). A session paid from another device reads at once.
 */
const walletFirstReadDelayMs = 60_000;

/** Queues the start of a new session's `checkoutSession` workflow, in the transaction that opens it. */
async function queueCheckoutStart(
  trx: Kysely<Database>,
  windows: OpenSessionDeps['checkout'],
  product: ProductWithAddress,
  expected: ExpectedPaymentRow,
  session: CheckoutSessionRow,
  tokenSymbol: string,
): Promise<void> {
  const input: CheckoutSessionInput = {
    sessionId: session.id,
    expectedPaymentId: expected.id,
    productId: product.id,
    merchantId: product.merchant_id,
    chainId: product.chain_id,
    expiresAt: session.expires_at?.getTime() ?? null,
    scanUntil: scanWindowEnd(windows, session.expires_at, session.created_at),
    ...(session.sender_address === null
      ? {}
      : { firstReadAt: session.created_at.getTime() + walletFirstReadDelayMs }),
  };
  const dollarAmount = normalizeDecimal(expected.dollar_amount, 2);
  const memo = checkoutMemo({ productSlug: product.slug, dollarAmount, productName: product.name });
  await queueWorkflowCall(trx, {
    kind: 'start',
    workflowType: 'checkoutSession',
    workflowId: checkoutWorkflowId(expected.id),
    call: {
      args: [input],
      // A checkout that ended never runs again: a late hash finds it closed.
      once: true,
      searchAttributes: {
        [Summary.name]: summaryLine(checkoutTitle(memo), 'awaiting_payment'),
        [MerchantId.name]: product.merchant_id,
        [MerchantWallet.name]: merchantWallet(product.address),
        [ProductId.name]: product.id,
        [CheckoutStatus.name]: 'awaiting_payment',
      },
      memo,
      ...shown(
        checkoutWorkflowSummary({
          dollarAmount,
          productName: product.name,
          productSlug: product.slug,
          expectedPaymentId: expected.id,
          sessionId: session.id,
          chainId: product.chain_id,
          tokenSymbol,
        }),
      ),
    },
  });
}

/**
 * Wakes the chain's watcher for a session a phone may pay (no payer's wallet named): it ticks at once instead
 * of at the end of its interval, and then follows the chain block by block (workflows/src/chainWatcher/workflow.ts).
 */
async function queuePayerlessWake(
  db: Kysely<Database>,
  taskQueue: string,
  session: Pick<CheckoutSessionRow, 'sender_address' | 'chain_id'>,
): Promise<void> {
  if (session.sender_address !== null) return;
  await queueWorkflowCall(db, {
    kind: 'signal',
    workflowType: 'chainWatcher',
    workflowId: chainWatcherWorkflowId(session.chain_id, taskQueue),
    call: { args: [], signal: { name: payerlessSessionOpenedSignal.name, args: [] } },
  });
}
