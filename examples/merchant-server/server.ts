/**
 * A shop's server in one file, selling one product through Stable Checkout with the merchant SDK:
 *   GET  /          creates an expected payment for a new order and renders the checkout element
 *   POST /webhooks  verifies a webhook's signature and acts on its event (handleWebhook.ts)
 *   GET  /orders    the orders and what became of them
 *   GET  /records   the orders, the transfers that fit no order and the sample events received
 * Run it with Node 22: `node server.ts` (see README.md for the settings).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createCheckoutClient } from '@checkout/client';
import { emptyRecords, handleWebhook } from './handleWebhook.ts';

const setting = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (see README.md)`);
  return value;
};
const checkoutUrl = setting('CHECKOUT_URL');
const productId = setting('PRODUCT_ID');
const client = createCheckoutClient({
  baseUrl: checkoutUrl,
  apiKey: setting('CHECKOUT_API_KEY'),
  walletAddress: setting('CHECKOUT_WALLET'),
});

const products = await client.GET('/api/v1/products');
const slug = products.data?.products.find((p) => p.id === productId)?.slug;
if (!slug) throw new Error(`product ${productId}: ${products.error?.message ?? 'not one of this account'}`);
const secret = await client.GET('/api/v1/webhook_secret');
if (!secret.data) throw new Error(`webhook secret: ${secret.error?.message}`);
const webhookSecret = secret.data.webhook_secret.secret;

const records = emptyRecords();
const { orders } = records;

const read = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

const handle = async (req: IncomingMessage, res: ServerResponse) => {
  if (req.method === 'GET' && req.url === '/') {
    const created = await client.POST('/api/v1/products/{id}/expected_payments', {
      params: { path: { id: productId } },
      body: { dollar_amount: '12.50', metadata: { order: `order-${orders.size + 1}` } },
    });
    if (!created.data) {
      res.writeHead(502).end(created.error?.message);
      return;
    }
    const { id } = created.data.expected_payment;
    orders.set(id, { status: 'awaiting_payment' });
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>
<html lang="en"><title>Coffee shop</title><main><h1>Espresso beans, $12.50</h1>
<script src="${checkoutUrl}/widget/crypto-checkout.iife.js"></script>
<crypto-checkout slug="${slug}" expected-payment="${id}" api-base="${checkoutUrl}"></crypto-checkout>
</main></html>`);
  } else if (req.method === 'POST' && req.url === '/webhooks') {
    const answer = await handleWebhook({
      secret: webhookSecret,
      header: (name) => req.headers[name.toLowerCase()]?.toString(),
      body: await read(req),
      records,
    });
    res.writeHead(answer.status).end(answer.text);
  } else if (req.method === 'GET' && req.url === '/orders') {
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify(Object.fromEntries(orders)));
  } else if (req.method === 'GET' && req.url === '/records') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        orders: Object.fromEntries(orders),
        unmatched_transfers: Object.fromEntries(records.unmatched),
        test_events: records.testEvents,
      }),
    );
  } else {
    res.writeHead(404).end();
  }
};

const server = createServer((req, res) => {
  handle(req, res).catch((error: unknown) => {
    console.error(error);
    if (!res.headersSent) res.writeHead(500);
    res.end();
  });
});
server.listen(Number(process.env.PORT ?? 4000), '127.0.0.1', () => {
  const address = server.address();
  console.log(
    `shop listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : ''}`,
  );
});
