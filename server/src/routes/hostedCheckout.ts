/**
 * The hosted checkout page, the widget's built files, and (outside production) a demo shop: pages a
 * shopper opens directly, so a merchant can link to a checkout without embedding anything.
 */
import { fileURLToPath } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';
import { ErrorResponse, Uuid } from '@checkout/core';
import { findExpectedPayment, findProductBySlug } from '@checkout/db';
import { demoDollarAmount, openDemoOrder } from '@checkout/workflows';
import { getAddress } from 'viem';
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import { createWidgetAssets } from '../widgetAssets.ts';
import type { Routes } from './declare.ts';
import { html, json, slugPath } from './docs.ts';
import { escapeHtml, page, shopperLanguage } from './hostedPage.ts';
import { widgetFileRoutes } from './widgetFiles.ts';

const widgetDist = fileURLToPath(new URL('../../../widget/dist/', import.meta.url));
/** The dev merchant's receiving wallet (the address `npm start` prints with its API key). */
const demoMerchantAddress = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720';

interface PageTexts {
  checkout: string;
  notFound: string;
  checkLink: string;
  demo: {
    title: string;
    heading: string;
    /** HTML; `amount` is plain text and `address` is already HTML (escaped, in `<code>`). */
    intro: (amount: string, address: string) => string;
    /** HTML. */
    howToPay: string;
  };
}

/** Texts of the hosted page and the demo shop, in the element's languages. */
const pageTexts: Record<'en' | 'es' | 'pt', PageTexts> = {
  en: {
    checkout: 'Checkout',
    notFound: 'Checkout not found',
    checkLink: 'Check the link you were given.',
    demo: {
      title: 'Demo shop',
      heading: 'Demo shop: one month of coffee',
      intro: (amount, address) =>
        `This page is the merchant's server: each visit creates a ${escapeHtml(amount)} expected payment for the dev merchant
${address} and embeds the checkout element for it.`,
      howToPay: `To pay, import the <strong>Shopper</strong> private key that <code>npm start</code> prints into a browser
wallet (MetaMask or similar), add the dev chain (its RPC URL and chain id 97 are printed too; the element asks
your wallet to add it), and pay with BUSD, or with USDC, DAI or USDT through a swap.
Never use that key on a real network: it is a public development key.`,
    },
  },
  es: {
    checkout: 'Pago',
    notFound: 'Pago no encontrado',
    checkLink: 'Revisa el enlace que te dieron.',
    demo: {
      title: 'Tienda de demostración',
      heading: 'Tienda de demostración: un mes de café',
      intro: (amount, address) =>
        `Esta página hace de servidor del comercio: cada visita crea un pago esperado de ${escapeHtml(amount)} para el
comercio de desarrollo ${address} e inserta el elemento de pago para ese pago.`,
      howToPay: `Para pagar, importa en una billetera del navegador (MetaMask o similar) la clave privada <strong>Shopper</strong>
que muestra <code>npm start</code>, añade la red de desarrollo (también se muestran su URL RPC y el chain id 97; el
elemento pide a tu billetera que la añada) y paga con BUSD, o con USDC, DAI o USDT mediante un intercambio.
No uses nunca esa clave en una red real: es una clave de desarrollo pública.`,
    },
  },
  pt: {
    checkout: 'Pagamento',
    notFound: 'Pagamento não encontrado',
    checkLink: 'Confira o link que você recebeu.',
    demo: {
      title: 'Loja de demonstração',
      heading: 'Loja de demonstração: um mês de café',
      intro: (amount, address) =>
        `Esta página faz o papel do servidor do lojista: cada visita cria um pagamento esperado de ${escapeHtml(amount)}
para o lojista de desenvolvimento ${address} e incorpora o elemento de pagamento para ele.`,
      howToPay: `Para pagar, importe a chave privada <strong>Shopper</strong> que o <code>npm start</code> mostra em uma
carteira do navegador (MetaMask ou similar), adicione a rede de desenvolvimento (a URL RPC e o chain id 97 também
são mostrados; o elemento pede à sua carteira para adicioná-la) e pague com BUSD, ou com USDC, DAI ou USDT por
meio de uma troca. Nunca use essa chave em uma rede real: é uma chave de desenvolvimento pública.`,
    },
  },
};

function element(slug: string, expectedPayment: string | undefined, email?: string | null): string {
  const expected = expectedPayment ? ` expected-payment="${escapeHtml(expectedPayment)}"` : '';
  const prefilled = email ? ` email="${escapeHtml(email)}"` : '';
  return `<crypto-checkout slug="${escapeHtml(slug)}"${expected}${prefilled}></crypto-checkout>`;
}

/**
 * The site's icon: a 32×32 ICO holding one PNG (deflated: about 200 bytes where a bitmap takes 4.3 KB) of
 * a filled circle in the element's accent colour, built once; browsers ask for `/favicon.ico` on every
 * page of the origin. Every browser that reads ICO files reads PNG images in them.
 */
const favicon: Buffer = (() => {
  const size = 32;
  // Scanlines of RGBA pixels, each after its filter byte (0: none).
  const rows = Buffer.alloc(size * (1 + size * 4));
  const centre = (size - 1) / 2;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const inside = Math.hypot(x - centre, y - centre) <= size / 2 - 1;
      // #1d4ed8, opaque inside the circle, transparent around it.
      if (inside) rows.set([0x1d, 0x4e, 0xd8, 0xff], y * (1 + size * 4) + 1 + x * 4);
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([head, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits per channel, RGBA, deflate, no filter method, no interlace
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  const directory = Buffer.alloc(6 + 16);
  directory.writeUInt16LE(1, 2); // type: icon
  directory.writeUInt16LE(1, 4); // one image
  directory.writeUInt8(size, 6);
  directory.writeUInt8(size, 7);
  directory.writeUInt16LE(1, 10); // planes
  directory.writeUInt16LE(32, 12); // bits per pixel
  directory.writeUInt32LE(png.length, 14);
  directory.writeUInt32LE(22, 18); // offset of the image
  return Buffer.concat([directory, png]);
})();

/**
 * GET /checkout/:slug (hosted page, its form pre-filled with the expected payment's `customer_email`),
 * GET /widget/*.js (built element), GET /favicon.ico, GET /demo outside production; both pages speak the
 * shopper's language (`Accept-Language`).
 */
export function hostedCheckoutRoutes(router: Routes, deps: AppDeps): void {
  const widget = createWidgetAssets(widgetDist);
  router.get(
    '/checkout/:slug',
    {
      summary: 'The hosted checkout page',
      requestParams: { path: slugPath, query: z.object({ expected_payment: z.uuid().optional() }) },
      responses: {
        '200': html('The page'),
        // A page for an unknown checkout; the one error body for a path the service refuses outright.
        '404': {
          description: 'No such checkout',
          content: { 'text/html': { schema: z.string() }, ...json(ErrorResponse) },
        },
      },
    },
    async (ctx) => {
      const slug = ctx.params.slug ?? '';
      const expected =
        typeof ctx.query.expected_payment === 'string' ? ctx.query.expected_payment : undefined;
      const product = /^[A-Za-z0-9_-]{1,64}$/.test(slug)
        ? await findProductBySlug(deps.db.kysely, slug)
        : undefined;
      const { tag, lang } = shopperLanguage(ctx.acceptsLanguages());
      const texts = pageTexts[lang];
      ctx.set('Vary', 'Accept-Language');
      if (!product || (expected !== undefined && !Uuid.safeParse(expected).success)) {
        ctx.status = 404;
        ctx.type = 'text/html; charset=utf-8';
        ctx.body = page(
          texts.notFound,
          `<h1>${escapeHtml(texts.notFound)}</h1><p>${escapeHtml(texts.checkLink)}</p>`,
          tag,
          { src: await widget.classicScriptPath() },
        );
        return;
      }
      // The merchant may have given the shopper's e-mail with the expected payment: the form starts with it.
      const payment = expected ? await findExpectedPayment(deps.db.kysely, expected) : undefined;
      const email = payment?.product_id === product.id ? payment.customer_email : null;
      ctx.type = 'text/html; charset=utf-8';
      ctx.set('Cache-Control', 'no-store');
      // The page is never cached, so it names the hashed script directly and skips the loader.
      ctx.body = page(
        product.name,
        `<h1>${escapeHtml(texts.checkout)}</h1>\n${element(slug, expected, email)}`,
        tag,
        { src: await widget.classicScriptPath() },
      );
    },
  );

  router.get(
    '/favicon.ico',
    {
      summary: 'The icon',
      responses: { '200': { description: 'An icon', content: { 'image/x-icon': { schema: z.string() } } } },
    },
    (ctx) => {
      ctx.type = 'image/x-icon';
      ctx.set('Cache-Control', 'public, max-age=86400');
      ctx.body = favicon;
    },
  );

  router.files((files) => widgetFileRoutes(files, widget));

  if (deps.config.env === 'production') return;

  router.get(
    '/demo',
    { summary: 'The demo shop (outside production)', responses: { '200': html('The page') } },
    async (ctx) => {
      const address = getAddress(deps.config.dev?.walletAddress ?? demoMerchantAddress);
      const { slug, expected } = await openDemoOrder(deps.db.kysely, deps, address);
      const { tag, lang } = shopperLanguage(ctx.acceptsLanguages());
      const texts = pageTexts[lang];
      ctx.set('Vary', 'Accept-Language');
      ctx.type = 'text/html; charset=utf-8';
      ctx.set('Cache-Control', 'no-store');
      const amount = new Intl.NumberFormat(tag, { style: 'currency', currency: 'USD' }).format(
        Number(demoDollarAmount),
      );
      ctx.body = page(
        texts.demo.title,
        `<h1>${escapeHtml(texts.demo.heading)}</h1>
<p>${texts.demo.intro(amount, `<code>${escapeHtml(address)}</code>`)}</p>
<p>${texts.demo.howToPay}</p>
${element(slug, expected.id)}`,
        tag,
        { src: await widget.classicScriptPath() },
      );
    },
  );
}
