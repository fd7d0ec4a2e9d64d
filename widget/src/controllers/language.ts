/** The element's language: the nearest `lang`, followed while connected, and its texts once fetched. */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { type Lang, type Localized, loadedMessages, pickLocale } from '../i18n.ts';
import { loadMessages } from '../lazy-modules.ts';

// Guards against pathological trees: ancestors watched for `lang`, and shadow roots crossed to find it.
const maxLangDepth = 1_000;
const maxShadowHops = 100;
/** A language whose texts could not be fetched is asked for again this many times, this far apart. */
const maxRetries = 3;
const retryMs = 2_000;

/**
 * Finds the language of the nearest non-empty `lang` — on the host or an ancestor, across shadow roots to
 * their hosts (as HTML defines an element's language), else the browser's — and follows it: the host,
 * every element up to the one carrying it, `languagechange`. Watching starts in the task after the host
 * connected, so the first render waits for nothing. Texts of another language than English are fetched
 * the first time it is wanted; until they arrive the texts in use stay (or, before any, there are none).
 */
export class LanguageController implements ReactiveController {
  /** The language in use and its texts; undefined until the first language's texts are in. */
  current: Localized | undefined;
  /** The language wanted now (its texts may still be on their way). */
  wanted: { locale: string; lang: Lang } = { locale: 'en', lang: 'en' };
  private readonly host: ReactiveControllerHost & HTMLElement;
  private observer: MutationObserver | undefined;
  private watchTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly follow = () => this.watch();
  private retries = 0;

  constructor(host: ReactiveControllerHost & HTMLElement) {
    this.host = host;
    host.addController(this);
  }

  hostConnected(): void {
    this.take(this.read().language);
    clearTimeout(this.watchTimer);
    this.watchTimer = setTimeout(() => {
      this.watchTimer = undefined;
      window.addEventListener('languagechange', this.follow);
      this.watch();
    }, 0);
  }

  hostDisconnected(): void {
    clearTimeout(this.watchTimer);
    this.watchTimer = undefined;
    this.observer?.disconnect();
    window.removeEventListener('languagechange', this.follow);
  }

  /** The language of the nearest `lang` and the element carrying it (null: the browser's language). */
  private read(): { language: { locale: string; lang: Lang }; from: Element | null } {
    let node: Element = this.host;
    for (let hops = 0; hops < maxShadowHops; hops++) {
      const from = node.closest('[lang]:not([lang=""])');
      if (from) return { language: pickLocale(from.getAttribute('lang') ?? undefined), from };
      const root = node.getRootNode();
      if (!(root instanceof ShadowRoot)) break;
      node = root.host;
    }
    return { language: pickLocale(undefined), from: null };
  }

  /**
   * Takes the language of the nearest `lang` and watches, for a change of `lang`, the element carrying it
   * and every element between it and the host (any of them could gain one), shadow hosts included.
   */
  private watch(): void {
    const { language, from } = this.read();
    this.take(language);
    this.observer ??= new MutationObserver(this.follow);
    this.observer.disconnect();
    let node: Element | null = this.host;
    for (let depth = 0; node && depth < maxLangDepth; depth++) {
      this.observer.observe(node, { attributes: true, attributeFilter: ['lang'] });
      if (node === from) break;
      const parent: Node | null = node.parentNode;
      node = parent instanceof ShadowRoot ? parent.host : parent instanceof Element ? parent : null;
    }
  }

  private take(language: { locale: string; lang: Lang }): void {
    if (this.current && language.locale === this.wanted.locale) return;
    this.wanted = language;
    const ready = loadedMessages.get(language.lang);
    if (ready) {
      this.use(language, ready);
      return;
    }
    loadMessages(language.lang).then(
      (messages) => {
        if (this.wanted === language) this.use(language, messages);
      },
      () => {
        // Not even English could be fetched: asked again a little later, a few times.
        if (this.retries++ < maxRetries)
          setTimeout(() => {
            if (this.wanted === language) this.take(language);
          }, retryMs);
      },
    );
  }

  private use(language: { locale: string }, messages: Localized['messages']): void {
    if (this.current?.locale === language.locale && this.current.messages === messages) return;
    this.current = { locale: language.locale, messages };
    this.host.requestUpdate();
  }
}
