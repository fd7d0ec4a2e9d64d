/** The frame of the service's own pages (hosted checkout, demo shop, refund pages) and their language. */
import { type Language, languageOf } from '@checkout/core/language';

/** `value` safe inside HTML text and attribute values. */
export const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** The element's tag for a checkout, with its expected payment and the shopper's e-mail when known. */
export function checkoutElement(
  slug: string,
  expectedPayment: string | undefined,
  email?: string | null,
): string {
  const expected = expectedPayment ? ` expected-payment="${escapeHtml(expectedPayment)}"` : '';
  const prefilled = email ? ` email="${escapeHtml(email)}"` : '';
  return `<crypto-checkout slug="${escapeHtml(slug)}"${expected}${prefilled}></crypto-checkout>`;
}

/** A language the pages speak. */
export type PageLanguage = Language;

/**
 * The visitor's language from `Accept-Language`: the first tag (in their order) whose language the pages
 * speak, kept whole so amounts follow the region (`pt-BR`); English otherwise. With `only`, just that
 * language's tags count (a refund's page is in the customer's language; the browser may add the region).
 */
export function shopperLanguage(
  accepted: string[],
  only?: PageLanguage,
): { tag: string; lang: PageLanguage } {
  for (const tag of accepted) {
    if (!/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(tag)) continue;
    const found = languageOf(tag);
    // A well-formed tag Intl cannot use (`en-x`) would break amount formatting here and in the element.
    if (found?.intl !== undefined && (only === undefined || found.lang === only))
      return { tag, lang: found.lang };
  }
  return only ? { tag: only, lang: only } : { tag: 'en', lang: 'en' };
}

/** The word under a not-found page's title, in the pages' languages. */
const checkLink: Record<PageLanguage, string> = {
  en: 'Check the link you were given.',
  es: 'Revisa el enlace que te dieron.',
  pt: 'Confira o link que você recebeu.',
};

/** The page of a link that leads to nothing: its title, and a word to check the link. */
export function notFoundPage(
  title: string,
  language: { tag: string; lang: PageLanguage },
  script?: PageScript,
) {
  return page(
    title,
    `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(checkLink[language.lang])}</p>`,
    language.tag,
    script,
  );
}

/** The page's script: the classic element, or a module entry. */
export interface PageScript {
  src: string;
  module?: boolean;
}

/** A whole page: title, body (HTML), language tag and the script it loads (none when absent). */
export function page(title: string, body: string, lang: string, script: PageScript | undefined): string {
  const tag = script
    ? `<script${script.module ? ' type="module"' : ''} src="${escapeHtml(script.src)}"></script>\n`
    : '';
  return `<!doctype html>
<html lang="${escapeHtml(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { margin: 0; padding: 1rem; display: grid; justify-items: center; gap: 1rem; }
  main { width: 100%; max-width: 28rem; display: grid; gap: 1rem; }
  h1 { font-size: 1.25rem; margin: 0; }
  code { overflow-wrap: anywhere; }
</style>
${tag}</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}
