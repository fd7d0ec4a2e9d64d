/**
 * The demo shop (outside production): the merchant's server of a one-product shop, in the shopper's
 * language. Each visit opens an expected payment for the dev merchant and embeds the element for it.
 */
import { demoDollarAmount, openDemoOrder } from '@checkout/workflows';
import { getAddress } from 'viem';
import { devWalletAddress } from '../config.ts';
import type { AppDeps } from '../context.ts';
import type { WidgetAssets } from '../widgetAssets.ts';
import type { Routes } from './declare.ts';
import { html } from './docs.ts';
import { checkoutElement, escapeHtml, type PageLanguage, page, shopperLanguage } from './hostedPage.ts';

interface DemoTexts {
  title: string;
  heading: string;
  /** HTML; `amount` is plain text and `address` is already HTML (escaped, in `<code>`). */
  intro: (amount: string, address: string) => string;
  /** HTML. */
  howToPay: string;
}

/** The demo shop's texts, in the element's languages. */
const demoTexts: Record<PageLanguage, DemoTexts> = {
  en: {
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
  es: {
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
  pt: {
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
};

/** GET /demo: a new expected payment of the demo product, and the page that pays it. */
export function demoShopRoutes(router: Routes, deps: AppDeps, widget: WidgetAssets): void {
  router.get(
    '/demo',
    { summary: 'The demo shop (outside production)', responses: { '200': html('The page') } },
    async (ctx) => {
      const address = getAddress(deps.config.dev?.walletAddress ?? devWalletAddress);
      const { slug, expected } = await openDemoOrder(deps.db.kysely, deps, address);
      const { tag, lang } = shopperLanguage(ctx.acceptsLanguages());
      const texts = demoTexts[lang];
      ctx.set('Vary', 'Accept-Language');
      ctx.type = 'text/html; charset=utf-8';
      ctx.set('Cache-Control', 'no-store');
      const amount = new Intl.NumberFormat(tag, { style: 'currency', currency: 'USD' }).format(
        Number(demoDollarAmount),
      );
      ctx.body = page(
        texts.title,
        `<h1>${escapeHtml(texts.heading)}</h1>
<p>${texts.intro(amount, `<code>${escapeHtml(address)}</code>`)}</p>
<p>${texts.howToPay}</p>
${checkoutElement(slug, expected.id)}`,
        tag,
        { src: await widget.classicScriptPath() },
      );
    },
  );
}
