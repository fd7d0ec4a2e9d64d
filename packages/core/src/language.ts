/**
 * The languages the service speaks to shoppers and customers (the element, the hosted pages, the e-mails),
 * and the one rule that picks one from a BCP 47 tag: the primary subtag picks the language, in any case, and
 * the whole tag as Intl writes it formats the figures, so amounts follow the region (`pt-BR`).
 */

const languages = ['en', 'es', 'pt'] as const;
export type Language = (typeof languages)[number];

/** `tag` as Intl writes it, or undefined when Intl cannot use it (`es-x`). */
function intlLocale(tag: string): string | undefined {
  // The usual tags (`es`, `pt-BR`) are canonical already: no need to ask Intl (the element's first render).
  if (/^[a-z]{2,3}(-[A-Z]{2})?$/.test(tag)) return tag;
  try {
    return Intl.getCanonicalLocales(tag)[0];
  } catch {
    return undefined;
  }
}

/**
 * The language of `tag` (`-` or `_` between subtags), with `intl`, the tag as Intl writes it (undefined when
 * Intl cannot use it); undefined when its language is none of {@link languages}.
 */
export function languageOf(tag: string): { lang: Language; intl: string | undefined } | undefined {
  const trimmed = tag.trim().replaceAll('_', '-');
  const base = trimmed.toLowerCase().split('-')[0] ?? '';
  if (!(languages as readonly string[]).includes(base)) return undefined;
  return { lang: base as Language, intl: intlLocale(trimmed) };
}
