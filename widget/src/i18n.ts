/**
 * The element's languages: English, Spanish and Portuguese, each in a file of its own (`i18n/`), fetched the
 * first time a page uses it — the first render ("Loading…") needs none of them.
 */
import { type Language, languageOf } from '@checkout/core/language';
import type { messages as english } from './i18n/en.ts';

/** Every text of the element in one language. */
export type Messages = typeof english;

/** A language the element speaks. */
export type Lang = Language;

/** "Loading…" of each language: the first render comes before the language's texts are fetched. */
export const loadingTexts: Record<Lang, string> = {
  en: 'Loading checkout…',
  es: 'Cargando el pago…',
  pt: 'Carregando o pagamento…',
};

/** The texts of each language fetched so far. */
export const loadedMessages = new Map<Lang, Messages>();

/** A language tag and the texts of its language. */
export interface Localized {
  locale: string;
  messages: Messages;
}

/** The language tag to use: the nearest `lang`, else the browser's, reduced to a supported one. */
export function pickLocale(requested: string | undefined): { locale: string; lang: Lang } {
  const tag = requested || (typeof navigator === 'undefined' ? 'en' : navigator.language) || 'en';
  const found = languageOf(tag);
  return found ? { locale: found.intl ?? found.lang, lang: found.lang } : { locale: 'en', lang: 'en' };
}
