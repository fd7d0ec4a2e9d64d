/** Area A products (spec 4.1-4.4): create, list, update, and their resolved payments. */
import {
  notFound,
  ProductCreateBody,
  ProductListResponse,
  ProductResponse,
  ProductUpdateBody,
  ResolvedPaymentListResponse,
  UpdatedProductResponse,
} from '@checkout/core';
import { listProducts, presentProduct, presentUpdatedProduct, setProductActive } from '@checkout/db';
import { createProduct, productPayments } from '@checkout/workflows';
import type { AppDeps } from '../context.ts';
import { assertWebhookUrlAllowed } from '../webhookUrlPolicy.ts';
import { type Routes, withBody } from './declare.ts';
import { areaA, errors, merchantHeaders, ok, productPath, walletHeader } from './docs.ts';
import { productOfRequest, walletScope } from './loaders.ts';

/** Registers the product routes on a router whose middleware has authenticated the merchant and wallet. */
export function productRoutes(router: Routes, deps: AppDeps): void {
  router.post(
    '/products',
    areaA('products:write', {
      summary: 'Create a product',
      requestParams: { header: merchantHeaders },
      responses: { ...ok('The new product', ProductResponse), ...errors(400, 401, 403, 409, 422) },
    }),
    withBody({ schema: ProductCreateBody, root: 'product' }, async (ctx, body) => {
      const { product: input } = body();
      assertWebhookUrlAllowed(
        input.webhook_url,
        'product.webhook_url',
        deps.config.webhooks.allowPrivateAddresses,
      );
      const wallet = ctx.state.address!;
      const row = await createProduct(ctx.state.db, deps, {
        merchantId: ctx.state.merchant!.merchantId,
        addressId: wallet.id,
        testOnly: ctx.state.merchant!.testOnly,
        product: input,
      });
      ctx.body = {
        product: presentProduct({ ...row, address: wallet.address, verified_address: wallet.verified }),
      };
    }),
  );

  // The serialised list per wallet, reused while the wallet's products_version is unchanged: every
  // product write bumps it in the same transaction, and the bump's notice drops the kept authentication that
  // carried the old version (authCache.ts): at once in the process that wrote, on its notice in the others.
  const listCache = new Map<string, { version: number; body: string }>();
  router.get(
    '/products',
    areaA('products:read', {
      summary: "List the wallet's products",
      requestParams: { header: walletHeader },
      responses: { ...ok('Products', ProductListResponse), ...errors(400, 401, 403) },
    }),
    async (ctx) => {
      const wallet = ctx.state.address!;
      const scope = walletScope(ctx.state);
      // A test key's list (test networks only) is cached apart from the full one.
      const cacheKey = scope.testOnly ? `${wallet.id}:test` : wallet.id;
      const cached = listCache.get(cacheKey);
      ctx.type = 'application/json';
      if (cached && cached.version === wallet.productsVersion) {
        ctx.body = cached.body;
        return;
      }
      const rows = await listProducts(ctx.state.db, scope);
      const body = JSON.stringify({ products: rows.map(presentProduct) });
      if (listCache.size >= 10_000) listCache.delete(listCache.keys().next().value!);
      listCache.set(cacheKey, { version: wallet.productsVersion, body });
      ctx.body = body;
    },
  );

  const update = withBody({ schema: ProductUpdateBody, root: 'product' }, async (ctx, body) => {
    const existing = await productOfRequest(ctx);
    const { product } = body();
    const row = await setProductActive(ctx.state.db, walletScope(ctx.state), existing.id, product.active);
    if (!row) throw notFound('Product');
    ctx.body = { product: presentUpdatedProduct(row) };
  });
  // `/product/:id` is the same route under the spec's other name.
  for (const [path, summary] of [
    ['/products/:id', 'Enable or disable a product'],
    ['/product/:id', 'Enable or disable a product (alias)'],
  ] as const) {
    router.patch(
      path,
      areaA('products:write', {
        summary,
        requestParams: { header: walletHeader, path: productPath },
        responses: {
          ...ok('The updated product', UpdatedProductResponse),
          ...errors(400, 401, 403, 404, 422),
        },
      }),
      update,
    );
  }

  router.get(
    '/products/:id/resolved_payments',
    areaA('payments:read', {
      summary: "List a product's resolved payments",
      requestParams: { header: walletHeader, path: productPath },
      responses: { ...ok('Resolved payments', ResolvedPaymentListResponse), ...errors(400, 401, 403, 404) },
    }),
    async (ctx) => {
      const product = await productOfRequest(ctx);
      ctx.body = { resolved_payments: await productPayments(ctx.state.db, deps.secrets, product) };
    },
  );
}
