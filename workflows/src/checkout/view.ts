/**
 * What the `<crypto-checkout>` element renders for a product (and an expected payment): the product's token
 * and the tokens a shopper may pay with on its chain, the chain's public RPC endpoint and confirmations,
 * and the expected payment's amount, status and session. It exposes no secret.
 */
import type { ChainClients } from '@checkout/chain';
import {
  type CheckoutView,
  normalizeDecimal,
  notFound,
  type TokenRegistry,
  wireTokenOf,
} from '@checkout/core';
import {
  type Database,
  findExpectedPayment,
  findSessionByExpectedPayment,
  type ProductWithAddress,
  storedTokenOf,
} from '@checkout/db';
import type { Kysely } from 'kysely';

/** The checkout of the product, with the expected payment when one is named (a 404 when it is not the product's). */
export async function describeCheckout(
  db: Kysely<Database>,
  deps: { tokens: TokenRegistry; chains: ChainClients },
  product: ProductWithAddress,
  expectedPaymentId: string | undefined,
): Promise<CheckoutView> {
  const chain = deps.tokens.chainById(product.chain_id);
  const productToken = { ...storedTokenOf(product), chain_id: product.chain_id };
  const paymentTokens = product.swappable
    ? (chain?.paymentTokens ?? []).map((t) => ({ ...wireTokenOf(t), chain_id: t.chainId }))
    : [productToken];
  let expected: CheckoutView['expected_payment'] = null;
  if (expectedPaymentId) {
    const row = await findExpectedPayment(db, expectedPaymentId);
    if (!row || row.product_id !== product.id) throw notFound('Expected payment');
    const session = await findSessionByExpectedPayment(db, row.id);
    expected = {
      id: row.id,
      dollar_amount: normalizeDecimal(row.dollar_amount, 2),
      expected_token_amount: normalizeDecimal(row.dollar_amount),
      status: row.status,
      session_id: session?.id ?? null,
    };
  }
  const endpoint = deps.chains.get(product.chain_id);
  return {
    slug: product.slug,
    name: product.name,
    active: product.active,
    is_test: product.token_network === 'testnet',
    token: productToken,
    payment_tokens: paymentTokens,
    custom_fields: product.custom_fields as CheckoutView['custom_fields'],
    open_amount: product.open_amount,
    swappable: product.swappable,
    sends_receipt: product.send_email,
    tax_rate: Number(normalizeDecimal(product.tax_rate)),
    expires_in_minutes: product.expires_in_minutes,
    receiving_address: product.address,
    chain_id: product.chain_id,
    blockchain: product.token_blockchain,
    network: product.token_network,
    router_address: product.swappable ? (chain?.router ?? null) : null,
    rpc_url: endpoint?.publicRpcUrl ?? null,
    required_confirmations: endpoint?.confirmations ?? 0,
    success_url: product.success_url,
    failure_url: product.failure_url,
    expected_payment: expected,
  };
}
