/** The refund pages' languages: English, Spanish and Portuguese, each a file fetched when a page uses it. */
import type { Lang } from '../i18n.ts';
import type { refundMessages as english } from './i18n/en.ts';

/** Every text of the refund pages in one language. */
export type RefundMessages = typeof english;

/** The texts of `lang`; English when Spanish or Portuguese cannot be fetched. */
export async function loadRefundMessages(lang: Lang): Promise<RefundMessages> {
  try {
    const module =
      lang === 'es'
        ? await import('./i18n/es.ts')
        : lang === 'pt'
          ? await import('./i18n/pt.ts')
          : await import('./i18n/en.ts');
    return module.refundMessages;
  } catch (error) {
    if (lang === 'en') throw error;
    return loadRefundMessages('en');
  }
}
