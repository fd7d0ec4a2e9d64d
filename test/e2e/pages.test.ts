/// <reference lib="dom" />
/**
 * `<crypto-checkout>` on the pages around it: a merchant's own site embedding it (inside a shadow root,
 * from another origin) and following its redirects; the hosted page in the dark, at 320 px, in Spanish;
 * Portuguese on a `pt-BR` page; a page that changes its language; and the demo shop, also in the
 * shopper's language. Payments need two confirmations here, so the "confirming" state is on screen until
 * the test mines the second block.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DevInbox, startDevInbox } from '@checkout/mail';
import type { Page } from 'playwright-core';
import { parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable } from '../support/database.ts';
import { randomAddress } from '../support/service.ts';
import { browserUnavailable } from './support/browser.ts';
import { artifacts, type CheckoutHarness, startCheckoutHarness } from './support/checkoutHarness.ts';

describe.skipIf(databaseUnavailable() || browserUnavailable())('checkout element on its pages', () => {
  let h: CheckoutHarness;
  const inbox = mkdtempSync(join(tmpdir(), 'checkout-e2e-inbox-'));
  // Receipts go to an SMTP inbox of their own; the inbox page above shows only the files the tests write.
  let mail: DevInbox;

  beforeAll(async () => {
    mail = await startDevInbox({ dir: mkdtempSync(join(tmpdir(), 'checkout-e2e-smtp-')) });
    h = await startCheckoutHarness({
      env: { CONFIRMATIONS_BINANCE_SMART_CHAIN_TESTNET: '2', DEV_INBOX_DIR: inbox, SMTP_URL: mail.smtpUrl },
    });
  });
  afterAll(async () => {
    await h?.stop();
    await mail?.close();
  });

  /** A merchant page (on the site's origin) that loads the ES build from the service. */
  const merchantPage = (
    path: string,
    attrs: { slug: string; expectedPayment: string; redirectDelay?: string },
    options: { lang?: string; inShadowRoot?: boolean } = {},
  ) => {
    const delay = attrs.redirectDelay === undefined ? '' : ` redirect-delay="${attrs.redirectDelay}"`;
    const element = `<crypto-checkout slug="${attrs.slug}" expected-payment="${attrs.expectedPayment}" api-base="${h.service.url}"${delay}></crypto-checkout>`;
    const body = options.inShadowRoot
      ? `<shop-checkout></shop-checkout>
<script>
  customElements.define('shop-checkout', class extends HTMLElement {
    connectedCallback() { this.attachShadow({ mode: 'open' }).innerHTML = ${JSON.stringify(element)}; }
  });
</script>`
      : element;
    return h.site.page(
      path,
      `<!doctype html>
<html lang="${options.lang ?? 'en'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Coffee shop</title>
<script type="module" src="${h.service.url}/widget/crypto-checkout.js"></script>
</head>
<body>
<main>
<h1>Coffee shop</h1>
${body}
</main>
</body>
</html>`,
    );
  };

  const landing = (path: string, title: string) =>
    h.site.page(
      path,
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1></main></body></html>`,
    );

  /** Waits until the payment has its first of two confirmations, checks that state, then mines the second. */
  const confirmPayment = async (
    page: Page,
    text = 'Confirming: 1 of 2 confirmations',
    state = 'confirming',
  ) => {
    await page.getByText(text).waitFor({ timeout: 30_000 });
    await h.expectAccessible(page, state);
    // The status is a note, not shaped like the controls: no box around it, nothing to click.
    const shape = await page.getByText(text).evaluate((el) => {
      const style = getComputedStyle(el);
      return [
        style.borderTopWidth,
        style.borderRightWidth,
        style.borderBottomWidth,
        style.borderRadius,
        style.cursor,
      ];
    });
    expect(shape).toEqual(['0px', '0px', '0px', '0px', 'auto']);
    await h.chain.mine(1);
  };

  /** No element of the page or of the checkout's shadow root reaches beyond the viewport's width. */
  const expectNoHorizontalOverflow = async (page: Page, state: string) => {
    const overflow = await page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      const root = document.querySelector('crypto-checkout')?.shadowRoot;
      const wide = [
        ...Array.from(document.body.querySelectorAll('*')),
        ...Array.from(root?.querySelectorAll('*') ?? []),
      ]
        .filter((el) => el.getBoundingClientRect().right > width + 0.5)
        .map(
          (el) =>
            `${el.tagName.toLowerCase()}${el.getAttribute('part') ? `[part=${el.getAttribute('part')}]` : ''}`,
        );
      return { width, scrollWidth: document.documentElement.scrollWidth, wide };
    });
    expect(overflow, `horizontal overflow in state "${state}"`).toEqual({
      width: 320,
      scrollWidth: 320,
      wide: [],
    });
  };

  it('redirects to success_url on the merchant site, with events that cross shadow roots', async () => {
    const thanks = landing('/thanks', 'Thank you');
    const product = await h.createProduct({ success_url: thanks, failure_url: landing('/sorry', 'Sorry') });
    const expected = await h.expectPayment(product.id, '8.00');
    const url = merchantPage(
      `/shop/${expected.id}`,
      { slug: product.slug, expectedPayment: expected.id },
      { inShadowRoot: true },
    );
    const shopper = await h.freshShopper('10');
    const { page, wallet, outcomes } = await h.openPage(shopper, url, { cancelOutcome: false });
    await h.fillShopper(page);
    await page.getByRole('button', { name: 'Pay with Test Wallet' }).click();
    await page.getByRole('button', { name: 'Pay now' }).click();
    await confirmPayment(page);
    // The outcome is on screen first (3 s by default): paid, the transaction, where the shopper is going.
    await page.getByText('Payment received. Thank you!').waitFor();
    const paidAt = Date.now();
    const site = new URL(thanks).host;
    await page.getByText(`Taking you back to ${site}…`).waitFor();
    expect(await page.getByRole('link', { name: 'Go now' }).getAttribute('href')).toBe(thanks);
    expect(await h.elementText(page)).toContain('Transaction: 0x');
    await h.expectAccessible(page, 'paid, taking the shopper back');
    await page.screenshot({ path: `${artifacts}paid-before-redirect.png` });
    expect(page.url()).toBe(url);
    await page.waitForURL(thanks, { timeout: 30_000 });
    expect(Date.now() - paidAt).toBeGreaterThan(2_000);
    await page.getByRole('heading', { name: 'Thank you' }).waitFor();
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]).toMatchObject({
      type: 'checkout-success',
      bubbles: true,
      composed: true,
      cancelable: true,
      url,
      detail: { txHash: wallet.sent[0] },
    });
    await h.expectWebhookFor(outcomes[0]!.detail.resolvedPaymentId!);
    await page.close();
  });

  it('redirects to failure_url when the payment reverts on chain', async () => {
    const sorry = landing('/sorry', 'Sorry');
    const product = await h.createProduct({
      success_url: landing('/thanks', 'Thank you'),
      failure_url: sorry,
    });
    const expected = await h.expectPayment(product.id, '8.10');
    // redirect-delay="0": the merchant's page opens the moment the outcome is known, as before.
    const url = merchantPage(`/shop/${expected.id}`, {
      slug: product.slug,
      expectedPayment: expected.id,
      redirectDelay: '0',
    });
    const shopper = await h.freshShopper('10');
    const { page, wallet, outcomes } = await h.openPage(shopper, url, { cancelOutcome: false });
    wallet.revertNext();
    await h.fillShopper(page);
    await page.getByRole('button', { name: 'Pay with Test Wallet' }).click();
    await page.getByRole('button', { name: 'Pay now' }).click();
    await confirmPayment(page);
    // Gone the moment the outcome came (the default 3 s would keep it longer).
    await expect.poll(() => outcomes.length, { timeout: 30_000 }).toBe(1);
    await page.waitForURL(sorry, { timeout: 1_000 });
    expect(outcomes).toMatchObject([
      { type: 'checkout-failure', bubbles: true, composed: true, detail: { reason: 'failed' } },
    ]);
    await page.close();
  });

  it('redirects to failure_url when the shopper lets the checkout expire', async () => {
    const sorry = landing('/sorry', 'Sorry');
    const product = await h.createProduct({
      success_url: landing('/thanks', 'Thank you'),
      failure_url: sorry,
    });
    const expected = await h.expectPayment(product.id, '8.20');
    const opened = await h.service.request('POST', `/api/v1/checkout/${product.slug}/sessions`, {
      json: {
        expected_payment_id: expected.id,
        email: 'shopper@example.com',
        custom_fields: { full_name: 'Ada Lovelace' },
        sender_address: randomAddress(),
        token_address: h.busd,
      },
    });
    expect(opened.status, opened.text).toBe(200);
    await h.service.deps.db.kysely
      .updateTable('checkout_sessions')
      .set({ expires_at: new Date(Date.now() + 4_000) })
      .where('id', '=', opened.body.session.id)
      .execute();
    const url = merchantPage(`/shop/${expected.id}`, {
      slug: product.slug,
      expectedPayment: expected.id,
      redirectDelay: '2',
    });
    const { page, wallet, outcomes } = await h.openPage(await h.freshShopper(), url, {
      cancelOutcome: false,
    });
    // Expired is said first, with where the shopper is going, for the merchant's 2 s.
    await page.getByText('This checkout has expired.').waitFor({ timeout: 15_000 });
    await page.getByText(`Taking you back to ${new URL(sorry).host}…`).waitFor();
    expect(page.url()).toBe(url);
    await h.expectAccessible(page, 'expired, taking the shopper back');
    await page.waitForURL(sorry, { timeout: 30_000 });
    expect(outcomes).toMatchObject([
      { type: 'checkout-failure', bubbles: true, composed: true, detail: { reason: 'expired' } },
    ]);
    expect(wallet.calls).toEqual([]);
    await page.close();
  });

  /** Text of the focused control, looking into the element's shadow root. */
  const focusedText = (page: Page) =>
    page.evaluate(() => {
      let active = document.activeElement;
      while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
      return active?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
    });

  const darkNarrow = async (page: Page) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 320, height: 800 });
  };

  it('is accessible, keyboard operable and fits 320 px in the dark: form, review, error, confirming, paid', async () => {
    const product = await h.createProduct({ custom_fields: ['full_name', 'company'] });
    const expected = await h.expectPayment(product.id, '1234.56');
    const shopper = await h.freshShopper('2000');
    const { page, wallet } = await h.openPage(
      shopper,
      `/checkout/${product.slug}?expected_payment=${expected.id}`,
      { before: darkNarrow },
    );
    expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(true);
    const background = await page.evaluate(
      () =>
        getComputedStyle(
          document.querySelector('crypto-checkout')!.shadowRoot!.querySelector('[part="base"]')!,
        ).backgroundColor,
    );
    expect(background).toBe('rgb(23, 25, 29)');

    await page.getByRole('button', { name: 'Pay with Test Wallet' }).click();
    await expect.poll(() => page.getByText('This field is required.').count()).toBe(2);
    await h.expectAccessible(page, 'dark 320: fields required');
    await expectNoHorizontalOverflow(page, 'fields required');
    await page.screenshot({ path: `${artifacts}dark-320-form.png`, fullPage: true });

    // From here on the keyboard alone: Tab to the wallet, Enter; focus then rests on the pay button.
    await h.fillShopper(page, { 'Full name': 'Ada Lovelace', Company: 'Analytical Engines' });
    await page.keyboard.press('Tab');
    expect(await focusedText(page)).toBe('Pay with Test Wallet');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Pay now' }).waitFor();
    await expect.poll(() => focusedText(page)).toBe('Pay now');
    await h.expectAccessible(page, 'dark 320: review');
    await expectNoHorizontalOverflow(page, 'review');
    await page.screenshot({ path: `${artifacts}dark-320-review.png`, fullPage: true });

    wallet.rejectNext();
    await page.keyboard.press('Enter');
    await page.getByText('You declined the request in your wallet').waitFor();
    await h.expectAccessible(page, 'dark 320: rejected');
    await expectNoHorizontalOverflow(page, 'rejected');
    await page.screenshot({ path: `${artifacts}dark-320-rejected.png`, fullPage: true });

    await page.getByRole('button', { name: 'Try again' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Confirming: 1 of 2 confirmations').waitFor({ timeout: 30_000 });
    await expectNoHorizontalOverflow(page, 'confirming');
    await page.screenshot({ path: `${artifacts}dark-320-confirming.png`, fullPage: true });
    await confirmPayment(page, 'Confirming: 1 of 2 confirmations', 'dark 320: confirming');
    const result = await h.outcome(page);
    expect(result.type, JSON.stringify(result.detail)).toBe('checkout-success');
    await page.getByText('Payment received. Thank you!').waitFor();
    await h.expectAccessible(page, 'dark 320: paid');
    await expectNoHorizontalOverflow(page, 'paid');
    await page.screenshot({ path: `${artifacts}dark-320-paid.png`, fullPage: true });
    expect(wallet.sent).toHaveLength(1);
    await page.close();
  });

  it('is accessible and fits 320 px in the dark when a payment fails or a checkout expires', async () => {
    const product = await h.createProduct();
    const failing = await h.expectPayment(product.id, '2.00');
    const shopper = await h.freshShopper('10');
    const failed = await h.openPage(shopper, `/checkout/${product.slug}?expected_payment=${failing.id}`, {
      before: darkNarrow,
    });
    failed.wallet.revertNext();
    await h.fillShopper(failed.page);
    await failed.page.getByRole('button', { name: 'Pay with Test Wallet' }).click();
    await failed.page.getByRole('button', { name: 'Pay now' }).click();
    await confirmPayment(failed.page);
    expect((await h.outcome(failed.page)).type).toBe('checkout-failure');
    await failed.page.getByText('The payment failed.').waitFor();
    await h.expectAccessible(failed.page, 'dark 320: failed');
    await expectNoHorizontalOverflow(failed.page, 'failed');
    await failed.page.screenshot({ path: `${artifacts}dark-320-failed.png`, fullPage: true });
    await failed.page.close();

    const expiring = await h.expectPayment(product.id, '2.10');
    const opened = await h.service.request('POST', `/api/v1/checkout/${product.slug}/sessions`, {
      json: {
        expected_payment_id: expiring.id,
        email: 'shopper@example.com',
        custom_fields: { full_name: 'Ada Lovelace' },
        sender_address: randomAddress(),
        token_address: h.busd,
      },
    });
    expect(opened.status, opened.text).toBe(200);
    await h.service.deps.db.kysely
      .updateTable('checkout_sessions')
      .set({ expires_at: new Date(Date.now() - 1_000) })
      .where('id', '=', opened.body.session.id)
      .execute();
    const expired = await h.openPage(
      await h.freshShopper(),
      `/checkout/${product.slug}?expected_payment=${expiring.id}`,
      { before: darkNarrow },
    );
    await expired.page.getByText('This checkout has expired.').waitFor();
    await h.expectAccessible(expired.page, 'dark 320: expired');
    await expectNoHorizontalOverflow(expired.page, 'expired');
    await expired.page.screenshot({ path: `${artifacts}dark-320-expired.png`, fullPage: true });
    await expired.page.close();
  });

  it("reads an amount the shopper's way (Spanish decimal comma) and keeps to the service's cap", async () => {
    const product = await h.createProduct({ open_amount: true, tax_rate: 0, custom_fields: [] });
    const { page } = await h.openPage(await h.freshShopper('20'), `/checkout/${product.slug}`, {
      headers: { 'Accept-Language': 'es-ES,es;q=0.9' },
    });
    await page.getByLabel('Correo electrónico').fill('comprador@example.com');
    const amount = page.getByLabel('Importe (USD)');
    const pick = page.getByRole('button', { name: 'Pagar con Test Wallet' });
    await amount.fill('100000000000000000000000');
    await pick.click();
    await page.getByText('El importe no puede superar 1.000.000.000,00 US$.').waitFor();
    expect(await h.elementText(page)).not.toContain('100.000.000.000');
    await h.expectAccessible(page, 'es: amount above the cap');
    await page.screenshot({ path: `${artifacts}after-amount-cap-es.png`, fullPage: true });
    await amount.fill('1.000.000.000,00');
    await page.getByText('1.000.000.000,00 US$').first().waitFor();
    await amount.fill('12,50');
    await page.getByText('12,50 US$').waitFor();
    await pick.click();
    await page.getByText('Envías 12,5 BUSD.').waitFor();
    const session = await h.service.deps.db.kysely
      .selectFrom('expected_payments')
      .select('dollar_amount')
      .where('product_id', '=', product.id)
      .executeTakeFirstOrThrow();
    expect(String(session.dollar_amount)).toMatch(/^12\.50*$/);
    await h.expectAccessible(page, 'es: review of 12,50');
    await page.screenshot({ path: `${artifacts}after-es-decimal-comma.png`, fullPage: true });
    await page.close();
  });

  it('says at once that an unknown payment link or an inactive product cannot be paid, with the way back and no retry', async () => {
    const product = await h.createProduct();
    const unknown = await h.openPage(
      await h.freshShopper(),
      `/checkout/${product.slug}?expected_payment=${randomUUID()}`,
    );
    await unknown.page.getByText('This payment link is not valid.').waitFor();
    expect(await unknown.page.getByRole('heading', { level: 2 }).textContent()).toContain('Espresso beans');
    expect(await unknown.page.getByRole('link', { name: 'Back to the shop' }).getAttribute('href')).toBe(
      'https://shop.example/sorry',
    );
    expect(await unknown.page.getByRole('button').count()).toBe(0);
    expect(await unknown.page.getByRole('textbox').count()).toBe(0);
    await h.expectAccessible(unknown.page, 'unknown payment link');
    await unknown.page.screenshot({ path: `${artifacts}after-unknown-payment-link.png` });
    await unknown.page.close();

    // A valid link to a product the merchant has since deactivated: said before any wallet is asked.
    const expected = await h.expectPayment(product.id, '6.00');
    await h.service.deps.db.kysely
      .updateTable('products')
      .set({ active: false })
      .where('id', '=', product.id)
      .execute();
    const inactive = await h.openPage(
      await h.freshShopper(),
      `/checkout/${product.slug}?expected_payment=${expected.id}`,
    );
    await inactive.page.getByText('This checkout is not active: nothing can be paid here.').waitFor();
    expect(await inactive.page.getByRole('button').count()).toBe(0);
    expect(await inactive.page.getByRole('link', { name: 'Back to the shop' }).count()).toBe(1);
    expect(inactive.wallet.calls).toEqual([]);
    await h.expectAccessible(inactive.page, 'inactive product');
    await inactive.page.screenshot({ path: `${artifacts}after-inactive-product.png` });
    await inactive.page.close();
  });

  it("pre-fills the expected payment's e-mail on the hosted page, and asks for nothing without a payment link", async () => {
    const product = await h.createProduct();
    const created = await h.service.request('POST', `/api/v1/products/${product.id}/expected_payments`, {
      headers: h.merchant.headers,
      json: { dollar_amount: '6.00', customer_email: 'ada@example.com' },
    });
    expect(created.status, created.text).toBe(200);
    const { page } = await h.openPage(
      await h.freshShopper(),
      `/checkout/${product.slug}?expected_payment=${created.body.expected_payment.id}`,
    );
    expect(await page.getByLabel('E-mail').inputValue()).toBe('ada@example.com');
    await page.close();

    const bare = await h.openPage(await h.freshShopper(), `/checkout/${product.slug}`);
    await bare.page.getByText('This checkout needs a payment link from the merchant.').waitFor();
    expect(await bare.page.getByRole('textbox').count()).toBe(0);
    await h.expectAccessible(bare.page, 'no payment link');
    await bare.page.screenshot({ path: `${artifacts}after-hosted-no-payment-link.png`, fullPage: true });
    await bare.page.close();

    const icon = await fetch(`${h.service.url}/favicon.ico`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/x-icon');
    // An ICO directory of one 32×32 image, a PNG: small on the wire without any content coding.
    const bytes = new Uint8Array(await icon.arrayBuffer());
    expect([...bytes.slice(0, 8)]).toEqual([0, 0, 1, 0, 1, 0, 32, 32]);
    expect([...bytes.slice(22, 26)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect(bytes.length).toBeLessThan(400);
    // Chromium decodes it as the page's icon: a 32×32 image, blue inside, transparent in the corner.
    const iconPage = await h.browser.context.newPage();
    await iconPage.goto(`${h.service.url}/favicon.ico`);
    const pixels = await iconPage.evaluate(async () => {
      const image = document.querySelector('img')!;
      await image.decode();
      const canvas = Object.assign(document.createElement('canvas'), { width: 32, height: 32 });
      const context = canvas.getContext('2d')!;
      context.drawImage(image, 0, 0);
      return {
        width: image.naturalWidth,
        centre: [...context.getImageData(16, 16, 1, 1).data],
        corner: [...context.getImageData(0, 0, 1, 1).data],
      };
    });
    expect(pixels).toEqual({ width: 32, centre: [0x1d, 0x4e, 0xd8, 0xff], corner: [0, 0, 0, 0] });
    await iconPage.close();
  });

  it('shows the dev inbox at 320 px without overflow or axe findings', async () => {
    const longLine = `Receipt https://shop.example/orders/${'0123456789abcdef'.repeat(8)} for ${'a'.repeat(90)}@example.com`;
    writeFileSync(
      join(inbox, '1741064767089-0123456789ab.eml'),
      [
        'From: shop@shop.example',
        `To: ${'b'.repeat(70)}@example.com`,
        `Subject: Your receipt ${'x'.repeat(80)}`,
        'Date: Tue, 04 Mar 2025 05:06:07 +0000',
        `Message-ID: <${'m'.repeat(80)}@shop.example>`,
        'Content-Type: text/plain; charset=utf-8',
        '',
        longLine,
        '',
      ].join('\r\n'),
    );
    const page = await h.browser.context.newPage();
    await page.setViewportSize({ width: 320, height: 700 });
    // The page forbids every script; the accessibility check injects axe, so the page's CSP is bypassed.
    await (await h.browser.context.newCDPSession(page)).send('Page.setBypassCSP', { enabled: true });
    await page.goto(`${h.service.url}/dev/mail`);
    await page.getByText('Dev inbox').waitFor();
    await page.getByText(longLine.slice(0, 30)).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(320);
    await h.expectAccessible(page, 'dev inbox at 320 px');
    await page.screenshot({ path: `${artifacts}after-dev-mail-320.png`, fullPage: true });
    await page.close();
  });

  it('speaks Portuguese on a pt-BR page, and sends the receipt in Portuguese', async () => {
    const product = await h.createProduct({ send_email: true, email_body: 'Obrigado pela compra!' });
    const expected = await h.expectPayment(product.id, '25.00');
    const url = merchantPage(
      `/loja/${expected.id}`,
      { slug: product.slug, expectedPayment: expected.id },
      { lang: 'pt-BR' },
    );
    const { page, wallet } = await h.openPage(await h.freshShopper('30'), url);
    await page.getByText('US$ 25,00').waitFor();
    await page.getByText('Inclui 20 % de impostos: US$ 4,17').waitFor();
    await page.getByLabel('E-mail').fill('comprador@example.com');
    await page.getByLabel('Nome completo').fill('Ada Lovelace');
    await page.getByRole('button', { name: 'Pagar com Test Wallet' }).click();
    await page.getByText('Você envia 25 BUSD.').waitFor();
    expect(await page.getByRole('timer').textContent()).toMatch(
      /Tempo para pagar: \d+:\d\d.*Restam \d+ minutos para pagar/,
    );
    wallet.rejectNext();
    await page.getByRole('button', { name: 'Pagar agora' }).click();
    await page.getByText('Você recusou o pedido na carteira. Pode tentar de novo.').waitFor();
    await h.expectAccessible(page, 'pt-BR: rejected');
    await page.screenshot({ path: `${artifacts}pt-BR-rejected.png`, fullPage: true });
    await page.getByRole('button', { name: 'Tentar de novo' }).click();
    await confirmPayment(page, 'Confirmando: 1 de 2 confirmações', 'pt-BR: confirming');
    await page.getByText('Pagamento recebido. Obrigado!').waitFor();
    await page.getByText('Enviamos um recibo para comprador@example.com.').waitFor();
    expect((await h.outcome(page)).type).toBe('checkout-success');
    await h.expectAccessible(page, 'pt-BR: paid, receipt sent');
    await page.screenshot({ path: `${artifacts}pt-BR-paid.png`, fullPage: true });
    const receipt = await mail.waitFor((m) => m.to.includes('comprador@example.com'), { timeoutMs: 20_000 });
    // The amount as the page showed it (US$ 25,00).
    expect(receipt.subject).toContain('Seu recibo de Espresso beans — US$\u00a025,00');
    expect(receipt.text).toContain('Obrigado pela compra!');
    await page.close();
  });

  it('speaks Spanish on the hosted page when the browser asks for Spanish', async () => {
    const product = await h.createProduct({ custom_fields: ['full_name'] });
    const expected = await h.expectPayment(product.id, '12.50');
    const shopper = await h.freshShopper('1');
    const { page } = await h.openPage(shopper, `/checkout/${product.slug}?expected_payment=${expected.id}`, {
      headers: { 'Accept-Language': 'es-MX,es;q=0.9,en;q=0.5' },
    });
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('es-MX');
    await page.getByRole('heading', { level: 1, name: 'Pago' }).waitFor();
    await page.getByText('Incluye 20 % de impuestos').waitFor();
    await page.getByLabel('Correo electrónico').fill('comprador@example.com');
    await page.getByLabel('Nombre completo').fill('Ada Lovelace');
    await page.getByRole('button', { name: 'Pagar con Test Wallet' }).click();
    await page.getByText('Tu billetera no tiene saldo suficiente para pagar 12.5 BUSD.').waitFor();
    await page.getByRole('button', { name: 'Reintentar' }).waitFor();
    await h.expectAccessible(page, 'es: insufficient');
    await page.screenshot({ path: `${artifacts}es-insufficient.png`, fullPage: true });
    await page.close();
  });

  it('follows the page when it changes its language, and the element its own lang', async () => {
    const product = await h.createProduct();
    const expected = await h.expectPayment(product.id, '25.00');
    const url = merchantPage(`/idiomas/${expected.id}`, { slug: product.slug, expectedPayment: expected.id });
    const { page, wallet } = await h.openPage(await h.freshShopper('1'), url);
    await page.getByText('$25.00').waitFor();
    // An error on screen is written again in the new language too.
    await page.getByRole('button', { name: 'Pay with Test Wallet' }).click();
    await expect.poll(() => page.getByText('This field is required.').count()).toBe(1);

    // The page switches to Spanish, as a language menu of a shop would.
    await page.evaluate(() => {
      document.documentElement.lang = 'es-ES';
    });
    await page.getByLabel('Correo electrónico').waitFor();
    await page.getByText('Este campo es obligatorio.').waitFor();
    await page.getByText('Incluye 20 % de impuestos').waitFor();
    await page.getByRole('button', { name: 'Pagar con Test Wallet' }).waitFor();
    expect(await page.getByText('This field is required.').count()).toBe(0);
    expect(await h.elementText(page)).toContain('25,00 US$');
    await h.expectAccessible(page, 'language changed to es-ES');

    // The element's own lang wins over the page's, and removing it falls back to the page's again.
    await page.locator('crypto-checkout').evaluate((el) => el.setAttribute('lang', 'pt-BR'));
    await page.getByText('US$ 25,00').waitFor();
    await page.getByLabel('Nome completo').fill('Ada Lovelace');
    await page.getByLabel('E-mail').fill('comprador@example.com');
    await page.getByRole('button', { name: 'Pagar com Test Wallet' }).click();
    await page.getByText('Sua carteira não tem saldo suficiente para pagar 25 BUSD.').waitFor();
    await page.locator('crypto-checkout').evaluate((el) => el.removeAttribute('lang'));
    await page.getByText('Tu billetera no tiene saldo suficiente para pagar 25 BUSD.').waitFor();
    await page.getByRole('button', { name: 'Reintentar' }).waitFor();
    expect(wallet.calls).not.toContain('eth_sendTransaction');
    await page.screenshot({ path: `${artifacts}language-followed.png`, fullPage: true });
    await page.close();
  });

  it('runs the demo shop in the language the browser asks for', async () => {
    const spanish = await h.service.request('GET', '/demo', {
      headers: { 'Accept-Language': 'fr-FR,es-MX;q=0.9,en;q=0.5' },
    });
    expect(spanish.status).toBe(200);
    expect(spanish.headers.get('vary')).toMatch(/Accept-Language/i);
    const html = spanish.text.replace(/\s+/g, ' ');
    expect(html).toContain('<html lang="es-MX">');
    expect(html).toContain('<title>Tienda de demostración</title>');
    expect(html).toContain('<h1>Tienda de demostración: un mes de café</h1>');
    const dollars = new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'USD' }).format(12.5);
    expect(html).toContain(`un pago esperado de ${dollars.replace(/\s+/g, ' ')} para el comercio`);

    const { page } = await h.openPage(await h.freshShopper('1'), '/demo', {
      headers: { 'Accept-Language': 'pt-BR,pt;q=0.9,en;q=0.5' },
    });
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('pt-BR');
    expect(await page.title()).toBe('Loja de demonstração');
    await page.getByRole('heading', { level: 1, name: 'Loja de demonstração: um mês de café' }).waitFor();
    expect((await page.locator('main > p').first().textContent())?.replace(/\s+/g, ' ')).toContain(
      'cada visita cria um pagamento esperado de US$ 12,50 para o lojista',
    );
    await page.getByText('US$ 12,50').first().waitFor();
    await page.getByLabel('Nome completo').waitFor();
    await page.getByRole('button', { name: 'Pagar com Test Wallet' }).waitFor();
    await h.expectAccessible(page, 'demo: pt-BR');
    await page.screenshot({ path: `${artifacts}demo-pt-BR.png`, fullPage: true });
    await page.close();
  });

  it('runs the demo shop: the page creates an expected payment and the shopper pays it', async () => {
    const shopper = await h.freshShopper('20');
    const { page, wallet } = await h.openPage(shopper, '/demo');
    await page.getByRole('heading', { level: 1, name: /Demo shop/ }).waitFor();
    const expectedId = await page.locator('crypto-checkout').getAttribute('expected-payment');
    expect(expectedId).toMatch(/^[0-9a-f-]{36}$/);
    await page.getByText('$12.50').first().waitFor();
    await h.fillShopper(page);
    await page.getByRole('button', { name: 'Pay with Test Wallet' }).click();
    await page.getByText('You send 12.5 BUSD.').waitFor();
    await page.getByRole('button', { name: 'Pay now' }).click();
    await confirmPayment(page);
    const result = await h.outcome(page);
    expect(result.type, JSON.stringify(result.detail)).toBe('checkout-success');
    await page.getByText('Payment received. Thank you!').waitFor();
    await h.expectAccessible(page, 'demo: paid');
    await page.screenshot({ path: `${artifacts}demo-paid.png`, fullPage: true });
    const row = await h.service.deps.db.kysely
      .selectFrom('expected_payments')
      .select(['status'])
      .where('id', '=', expectedId!)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('paid');
    expect(wallet.sent).toEqual([result.detail.txHash]);
    expect(await h.busdBalance(wallet.address)).toBe(parseUnits('7.5', 18));

    // Each visit is a new order: a second visit embeds another expected payment.
    await page.goto(`${h.service.url}/demo`);
    const next = await page.locator('crypto-checkout').getAttribute('expected-payment');
    expect(next).not.toBe(expectedId);
    await page.close();
  });
});
