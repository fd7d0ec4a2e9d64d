/**
 * What the shop does with each webhook of its product: verify the signature over the raw bytes, drop a
 * retried or stale event, then act on the event (an order paid, held, failed, reversed or refunded; a refund
 * that moved; a transfer that fits no order). The shop's records are kept in memory, as the rest of the
 * example does; a real shop writes them in its database, in one transaction with the event's id.
 */
// #region types
import { type components, verifyWebhookSignature, webhookHeaderNames } from '@checkout/client';

type ResolvedPayment = components['schemas']['ResolvedPayment'];
type Refund = components['schemas']['Refund'];
type UnmatchedTransfer = components['schemas']['UnmatchedTransfer'];
// #endregion

/** What became of an order, from its resolved payment. */
type OrderStatus = 'awaiting_payment' | 'paid' | 'underpaid' | 'failed' | 'reversed' | 'refunded';

/** An order, keyed by its expected payment's id. */
interface Order {
  status: OrderStatus;
  payment_id?: string;
  tx_id?: string;
  /** The payment's `exception_status`, as last told (`paid_over`, `paid_late`, `paid_twice`…). */
  exception_status?: string | null;
  /** What arrived, in token units. */
  received?: string;
  /** Its refunds' statuses by refund id. */
  refunds?: Record<string, Refund['status']>;
}

/** Everything the shop learns from webhooks. */
export interface ShopRecords {
  orders: Map<string, Order>;
  /** Transfers that fit no order, for someone to attach or refund (in the console or through the API). */
  unmatched: Map<string, UnmatchedTransfer['status']>;
  /** The sample events received (`X-Test-Event: true`), by event type: acknowledged, never acted on. */
  testEvents: string[];
  /** Event ids already handled: a retry or a redelivery of one is acknowledged and not handled again. */
  handled: Set<string>;
  /** The highest sequence handled per record: an event below it is stale. */
  sequences: Map<string, number>;
}

/** Empty records for a shop that has received nothing yet. */
export function emptyRecords(): ShopRecords {
  return {
    orders: new Map(),
    unmatched: new Map(),
    testEvents: [],
    handled: new Set(),
    sequences: new Map(),
  };
}

/** The answer to give the service: 2xx ends the delivery; 4xx stops it (a bad signature is not retried). */
export interface WebhookAnswer {
  status: number;
  text?: string;
}

// #region status
/** The order status a resolved payment means, whichever event brought it (created, updated or reversed). */
function orderStatusOf(payment: ResolvedPayment): OrderStatus {
  // Taken off the chain by a reorganisation: the money is not there; stop fulfilment.
  if (payment.payment.exception_status === 'reversed') return 'reversed';
  // The transaction reverted: nothing was paid; the shopper may try again.
  if (payment.payment.tx_failure) return 'failed';
  // Less than the price arrived: hold the order; a top-up attached later comes as resolved_payment.updated.
  if (payment.payment.exception_status === 'paid_partially') return 'underpaid';
  // Confirmed refunds gave back all it received.
  if (payment.payment.exception_status === 'refunded') return 'refunded';
  // Exact, over, late, paid twice or partly refunded: it is paid; the exception says what else to do.
  return 'paid';
}
// #endregion

// #region handle
/** Verifies one webhook and acts on it; answers what to tell the service. */
export async function handleWebhook(input: {
  secret: string;
  /** A request header by name (any case), or undefined. */
  header: (name: string) => string | undefined;
  /** The raw body, exactly as received. */
  body: Uint8Array;
  records: ShopRecords;
}): Promise<WebhookAnswer> {
  const { header, records } = input;
  const verdict = await verifyWebhookSignature({
    secret: input.secret,
    header: header(webhookHeaderNames.signature),
    body: input.body,
  });
  if (!verdict.ok) return { status: 400, text: verdict.reason };

  const eventId = header(webhookHeaderNames.eventId) ?? '';
  const event = header(webhookHeaderNames.event);
  if (records.handled.has(eventId)) return { status: 204 }; // a retry or a redelivery: done already
  if (header(webhookHeaderNames.test) === 'true') {
    // A sample you asked for: its ids are made up. Check it reached you, then change nothing.
    records.testEvents.push(String(event));
    records.handled.add(eventId);
    return { status: 204 };
  }
  const sequence = Number(header(webhookHeaderNames.eventSequence) ?? 0);
  const body: unknown = JSON.parse(new TextDecoder().decode(input.body));

  switch (event) {
    case 'resolved_payment.created':
    case 'resolved_payment.updated':
    case 'resolved_payment.reversed': {
      // The body is the Resolved Payment itself, as it now stands.
      const payment = body as ResolvedPayment;
      if (isStale(records, `payment:${payment.id}`, sequence)) break;
      const order = records.orders.get(payment.expected_payment_id) ?? { status: 'awaiting_payment' };
      records.orders.set(payment.expected_payment_id, {
        ...order,
        status: orderStatusOf(payment),
        payment_id: payment.id,
        tx_id: payment.payment.tx_id,
        exception_status: payment.payment.exception_status,
        received: payment.payment.received_token_amount,
      });
      break;
    }
    case 'refund.updated': {
      // An envelope: `{event, id, sequence, payload: {refund}}`.
      const { refund } = (body as { payload: { refund: Refund } }).payload;
      if (isStale(records, `refund:${refund.id}`, sequence)) break;
      // `expired`: the customer never claimed it; the money is still yours: tell them, or refund again.
      for (const order of records.orders.values()) {
        if (refund.resolved_payment_id && order.payment_id === refund.resolved_payment_id) {
          order.refunds = { ...order.refunds, [refund.id]: refund.status };
        }
      }
      break;
    }
    case 'unmatched_transfer.created':
    case 'unmatched_transfer.updated': {
      // Money that fits no order: attach it to one, refund it or dismiss it.
      const transfer = (body as { payload: { unmatched_transfer: UnmatchedTransfer } }).payload
        .unmatched_transfer;
      if (isStale(records, `transfer:${transfer.id}`, sequence)) break;
      records.unmatched.set(transfer.id, transfer.status);
      break;
    }
    default:
      // An event this shop does not handle: acknowledge it, or it is retried for three days.
      break;
  }
  // Remembered once handled: had handling failed, the service's retry would try again.
  records.handled.add(eventId);
  return { status: 204 };
}

/** Whether an event about `record` is older than one already handled; remembers its sequence if not. */
function isStale(records: ShopRecords, record: string, sequence: number): boolean {
  if (sequence <= (records.sequences.get(record) ?? 0)) return true;
  records.sequences.set(record, sequence);
  return false;
}
// #endregion
