/** The console's languages: English in the shell, Spanish and Portuguese fetched the first time they are chosen. */
import { messages as english } from './i18n/en.ts';

/** Every text of the console in one language. */
export type Messages = typeof english;

export const languages = ['en', 'es', 'pt'] as const;
export type Lang = (typeof languages)[number];

/** The language to start in: the one chosen before, else the browser's first the console speaks, else English. */
export function startLanguage(): Lang {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem('console:lang');
  } catch {
    // Storage may be refused (privacy settings): the browser's language then.
  }
  const wanted = [stored ?? '', ...navigator.languages].map((tag) => tag.slice(0, 2).toLowerCase());
  return (wanted.find((l) => (languages as readonly string[]).includes(l)) as Lang | undefined) ?? 'en';
}

/** The texts of `lang` (English when another cannot be fetched), remembering the choice. */
export async function loadMessages(lang: Lang): Promise<Messages> {
  try {
    localStorage.setItem('console:lang', lang);
  } catch {
    // Not remembered: the next visit starts in the browser's language.
  }
  try {
    if (lang === 'es') return (await import('./i18n/es.ts')).messages;
    if (lang === 'pt') return (await import('./i18n/pt.ts')).messages;
  } catch {
    // The chunk could not be fetched: English.
  }
  return english;
}

export { english };
