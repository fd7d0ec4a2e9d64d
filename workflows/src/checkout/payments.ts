/** A product's or a wallet's resolved payments as the merchant reads them: each with what is unusual about it. */
import type { PaymentTimelineResponse, ResolvedPayment } from '@checkout/core';
import {
  type Database,
  listPaidTwice,
  listResolvedPayments,
  type PaymentSearchFilter,
  type ProductRow,
  presentPaymentTimeline,
  presentResolvedPayment,
  readPaymentTimelineRecords,
  type SearchedPayment,
  type SecretBox,
  searchResolvedPayments,
  type WalletScope,
} from '@checkout/db';
import type { Kysely } from 'kysely';

/** The product's resolved payments, newest first, `paid_twice` where a duplicate waits. */
export async function productPayments(
  db: Kysely<Database>,
  secrets: SecretBox,
  product: ProductRow,
): Promise<ResolvedPayment[]> {
  const rows = await listResolvedPayments(db, product.id);
  const paidTwice = await listPaidTwice(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) =>
    presentResolvedPayment(r, product, secrets, {
      paidTwice: paidTwice.has(r.id),
      sweepGasWei: r.sweep_gas_wei,
    }),
  );
}

const present = (secrets: SecretBox, row: SearchedPayment) =>
  presentResolvedPayment(row, row, secrets, { paidTwice: row.paid_twice, sweepGasWei: row.sweep_gas_wei });

/**
 * One page of the wallet's resolved payments matching `filter`, newest first, and the cursor of the next page
 * (null when this one is the last).
 */
export async function walletPayments(
  db: Kysely<Database>,
  secrets: SecretBox,
  scope: WalletScope,
  filter: PaymentSearchFilter,
  page: { limit: number; after?: string | undefined },
): Promise<{ resolved_payments: ResolvedPayment[]; next_cursor: string | null }> {
  // One row more than the page tells whether another page follows.
  const rows = await searchResolvedPayments(db, scope, filter, { ...page, limit: page.limit + 1 });
  const shown = rows.slice(0, page.limit);
  return {
    resolved_payments: shown.map((row) => present(secrets, row)),
    next_cursor: rows.length > page.limit ? (shown.at(-1)?.id ?? null) : null,
  };
}

/** The wallet's resolved payment of `id`, or undefined. */
export async function walletPayment(
  db: Kysely<Database>,
  secrets: SecretBox,
  scope: WalletScope,
  id: string,
): Promise<ResolvedPayment | undefined> {
  const [row] = await searchResolvedPayments(db, scope, { id }, { limit: 1 });
  return row && present(secrets, row);
}

/** The timeline of the wallet's resolved payment of `id` (everything that happened to it), or undefined. */
export async function walletPaymentTimeline(
  db: Kysely<Database>,
  secrets: SecretBox,
  scope: WalletScope,
  id: string,
): Promise<PaymentTimelineResponse | undefined> {
  const [row] = await searchResolvedPayments(db, scope, { id }, { limit: 1 });
  if (!row) return undefined;
  const records = await readPaymentTimelineRecords(db, row, scope.merchantId);
  return presentPaymentTimeline(row, present(secrets, row).payment.exception_status, records);
}

/** The columns of the CSV export, in order. */
const csvColumns = [
  'id',
  'created_at',
  'product',
  'email',
  'dollar_amount',
  'amount',
  'token',
  'chain',
  'chain_id',
  'tx_hash',
  'sender',
  'exception',
  'refunded',
  'test',
] as const;

/**
 * A CSV cell: quoted when it holds a comma, quote or line break; a value a spreadsheet would run as a formula
 * (`=`, `+`, `-`, `@`, tab, carriage return first) is prefixed with `'` (OWASP's CSV injection advice), except
 * a plain negative number.
 */
function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) && !/^-\d+(\.\d+)?$/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

function csvRow(payment: ResolvedPayment, chainId: number): string {
  const p = payment.payment;
  const cells: Record<(typeof csvColumns)[number], string> = {
    id: payment.id,
    created_at: p.created_at,
    product: payment.slug,
    email: payment.user.email,
    dollar_amount: payment.dollar_amount,
    amount: p.received_token_amount,
    token: p.received_token.symbol,
    chain: `${p.received_token.blockchain} ${p.received_token.network}`,
    chain_id: String(chainId),
    tx_hash: p.tx_id,
    sender: p.sender_address,
    exception: p.exception_status ?? '',
    refunded: p.refunded_amount,
    test: String(payment.is_test),
  };
  return `${csvColumns.map((c) => csvCell(cells[c])).join(',')}\r\n`;
}

/**
 * The wallet's resolved payments matching `filter` as CSV lines (RFC 4180: a header line, then one line per
 * payment, newest first), read a page at a time so that any number streams in bounded memory.
 */
export async function* walletPaymentsCsv(
  db: Kysely<Database>,
  secrets: SecretBox,
  scope: WalletScope,
  filter: PaymentSearchFilter,
): AsyncGenerator<string> {
  yield `${csvColumns.join(',')}\r\n`;
  let after: string | undefined;
  for (;;) {
    const rows = await searchResolvedPayments(db, scope, filter, { limit: 500, after });
    if (rows.length === 0) return;
    yield rows.map((row) => csvRow(present(secrets, row), row.chain_id)).join('');
    after = rows.at(-1)?.id;
  }
}
