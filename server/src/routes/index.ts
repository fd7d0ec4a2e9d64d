/**
 * Every route the API answers, in one list, by the router that serves it: the app registers them
 * (app.ts) and the document describes them (../openapi.ts) from this same walk.
 */
import { fileURLToPath } from 'node:url';
import { readInbox, renderInboxPage } from '@checkout/mail';
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import { sandboxKycProvider } from '../kycProvider.ts';
import { createWidgetAssets } from '../widgetAssets.ts';
import { apiKeyRoutes } from './apiKeys.ts';
import { auditLogRoutes } from './auditLog.ts';
import { expectedPaymentRoutes, publicCheckoutRoutes } from './checkout.ts';
import { checkoutSessionRoutes } from './checkoutSessions.ts';
import { consoleRoutes } from './console.ts';
import { consolePageRoutes } from './consolePage.ts';
import type { Routes } from './declare.ts';
import { html, json } from './docs.ts';
import { faviconRoutes } from './favicon.ts';
import { healthRoutes } from './health.ts';
import { hostedCheckoutRoutes } from './hostedCheckout.ts';
import { hostedRefundRoutes } from './hostedRefunds.ts';
import { latamBankNameRoutes } from './latamBankNames.ts';
import { offrampRoutes } from './offramps.ts';
import { onrampRoutes, onrampSandboxRoutes } from './onramps.ts';
import { paymentDetailRoutes } from './paymentDetails.ts';
import { paymentSummaryRoutes } from './paymentSummary.ts';
import { productRoutes } from './products.ts';
import { quoteRoutes } from './quotes.ts';
import { publicRefundRoutes } from './refundClaims.ts';
import { refundRoutes } from './refunds.ts';
import { resolvedPaymentRoutes } from './resolvedPayments.ts';
import { sandboxPageRoutes, sandboxRoutes } from './sandbox.ts';
import { sandboxOutcomeRoutes } from './sandboxOutcomes.ts';
import { teamRoutes } from './team.ts';
import { undeliveredEmailRoutes } from './undeliveredEmails.ts';
import { unmatchedTransferRoutes } from './unmatchedTransfers.ts';
import { userRoutes } from './users.ts';
import { webhookEndpointRoutes } from './webhookEndpoint.ts';
import { webhookRoutes } from './webhooks.ts';

/**
 * The routers of the API, each with its own middleware (see app.ts): `open` (health, pages, the document),
 * `checkout` (the public checkout API and the refund pages' JSON under /api/v1, rate-limited), `areaA` (merchant key and wallet, under
 * /api/v1), `console` (the console's sign-in under /api/v1, rate-limited), `account` (merchant key or console
 * session without a wallet, under /api/v1: the team), `pages` (sandbox pages), `sandbox` (the sandbox's
 * outcome moves: merchant key and wallet) and `areaB` (merchant key).
 */
export type RouterName =
  | 'open'
  | 'checkout'
  | 'areaA'
  | 'console'
  | 'account'
  | 'pages'
  | 'sandbox'
  | 'areaB';

/** The URL prefix of each router. */
export const routerPrefixes: Readonly<Record<RouterName, string>> = {
  open: '',
  checkout: '/api/v1',
  areaA: '/api/v1',
  console: '/api/v1',
  account: '/api/v1',
  pages: '',
  sandbox: '',
  areaB: '',
};

/** Declares every route on the router `on` gives for it; `document` answers GET /openapi.json. */
export function declareRoutes(
  deps: AppDeps,
  on: (name: RouterName) => Routes,
  document: () => unknown,
): void {
  const open = on('open');
  const widget = createWidgetAssets(fileURLToPath(new URL('../../../widget/dist/', import.meta.url)));
  healthRoutes(open, deps);
  hostedCheckoutRoutes(open, deps, widget);
  faviconRoutes(open);
  hostedRefundRoutes(open, deps, widget);
  consolePageRoutes(open, deps, widget);
  open.get(
    '/openapi.json',
    {
      summary: 'This document',
      responses: { '200': { description: 'The OpenAPI document', content: json(z.looseObject({})) } },
    },
    (ctx) => {
      ctx.body = document();
    },
  );
  const inboxDir = deps.config.mail.devInboxDir;
  if (inboxDir) {
    // Development only: the local SMTP inbox as a page.
    const cache = new Map();
    open.get(
      '/dev/mail',
      { summary: 'The development mail inbox', responses: { '200': html('The inbox') } },
      async (ctx) => {
        ctx.type = 'text/html; charset=utf-8';
        ctx.body = renderInboxPage(await readInbox(inboxDir, { cache }));
      },
    );
  }

  publicCheckoutRoutes(on('checkout'), deps);
  checkoutSessionRoutes(on('checkout'), deps);
  publicRefundRoutes(on('checkout'), deps);

  const areaA = on('areaA');
  productRoutes(areaA, deps);
  expectedPaymentRoutes(areaA, deps);
  webhookRoutes(areaA, deps);
  unmatchedTransferRoutes(areaA, deps);
  undeliveredEmailRoutes(areaA);
  refundRoutes(areaA, deps);
  consoleRoutes(on('console'), deps);
  teamRoutes(on('account'));
  resolvedPaymentRoutes(areaA, deps);
  paymentSummaryRoutes(areaA, deps);

  const account = on('account');
  apiKeyRoutes(account);
  auditLogRoutes(account);

  const sandbox = deps.config.areaB.sandboxEnabled;
  if (sandbox) sandboxPageRoutes(on('pages'), deps);
  if (sandbox) sandboxOutcomeRoutes(on('sandbox'), deps);
  const areaB = on('areaB');
  userRoutes(areaB, deps, sandbox ? sandboxKycProvider(deps.config.publicBaseUrl) : undefined);
  paymentDetailRoutes(areaB, deps);
  latamBankNameRoutes(areaB);
  webhookEndpointRoutes(areaB, deps);
  onrampRoutes(areaB, deps);
  quoteRoutes(areaB, deps);
  offrampRoutes(areaB, deps);
  if (sandbox) sandboxRoutes(areaB, deps);
  if (sandbox) onrampSandboxRoutes(areaB);
}
