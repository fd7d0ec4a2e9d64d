/**
 * What every console page shares: the app it runs in (client, session, texts, navigation), its load with
 * the loading and failure states, what the signed-in member's role may change, and the words it shows for a
 * failed action.
 */
import type { CheckoutClient } from '@checkout/client';
import { grants, type Role, roleScopes, type Scope } from '@checkout/core/access';
import { html, LitElement, nothing, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { ApiFailure, type ConsoleSession } from './api.ts';
import type { Messages } from './i18n.ts';
import { shared } from './styles.ts';

/** What a page is given by the shell. */
export interface App {
  client: CheckoutClient;
  session: ConsoleSession;
  t: Messages;
  locale: string;
  navigate(path: string): void;
}

/** A page that loads `T` when shown and again on `reload()`. */
export abstract class ConsolePage<T> extends LitElement {
  static override styles = [shared];
  @property({ attribute: false }) app!: App;
  @state() protected data: T | undefined;
  @state() protected failure: string | undefined;
  /** The outcome of the last action (a form's), shown beside it. */
  @state() protected notice: { text: string; error: boolean } | undefined;

  protected abstract load(): Promise<T>;

  /** Whether the signed-in member's role holds `scope`: a page shows its write controls only then (the API refuses the others all the same). */
  protected may(scope: Scope): boolean {
    return grants(roleScopes[this.app.session.role as Role] ?? [], scope);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.reload();
  }

  protected async reload(): Promise<void> {
    this.failure = undefined;
    try {
      this.data = await this.load();
    } catch (error) {
      this.failure = describe(error, this.app.t);
    }
  }

  /** Runs an action, then says how it went and loads the page again. */
  protected async act(action: () => Promise<unknown>, done?: string): Promise<void> {
    try {
      await action();
      this.notice = { text: done ?? this.app.t.done, error: false };
      await this.reload();
    } catch (error) {
      this.notice = { text: describe(error, this.app.t), error: true };
    }
  }

  protected abstract view(data: T): TemplateResult;

  protected noticeView(): TemplateResult | typeof nothing {
    const n = this.notice;
    return n ? html`<p role="status" class=${n.error ? 'error' : 'ok'}>${n.text}</p>` : nothing;
  }

  override render(): TemplateResult {
    const { t } = this.app;
    if (this.failure)
      return html`<p role="alert" class="error">${this.failure}</p>
        <button type="button" @click=${() => void this.reload()}>${t.retry}</button>`;
    if (this.data === undefined) return html`<p role="status">${t.loading}</p>`;
    return this.view(this.data);
  }
}

/** An error in the page's words: the API's message naming what is wrong, else the general one. */
export function describe(error: unknown, t: Messages): string {
  if (error instanceof ApiFailure && error.body) {
    const fields = error.body.errors?.map((e) => `${e.path} ${e.message}`).join('; ');
    return fields ? `${error.body.message} (${fields})` : error.body.message;
  }
  return t.failed;
}

/** A form's fields by name, as strings (empty ones left out). */
export function formFields(event: SubmitEvent): Record<string, string> {
  event.preventDefault();
  const form = event.currentTarget as HTMLFormElement;
  const fields: Record<string, string> = {};
  for (const [name, value] of new FormData(form))
    if (typeof value === 'string' && value.trim()) fields[name] = value.trim();
  return fields;
}
