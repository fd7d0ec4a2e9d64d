/** The audit log: who (a wallet or a key) did what and when, newest first, a page at a time. */
import type { components } from '@checkout/client';
import { html, nothing, type TemplateResult } from 'lit';
import { data } from '../api.ts';
import { when } from '../format.ts';
import { ConsolePage, describe } from '../page.ts';

type AuditEvent = components['schemas']['AuditEvent'];

class AuditPage extends ConsolePage<{ events: AuditEvent[]; next: string | null }> {
  protected async load() {
    const page = data(await this.app.client.GET('/api/v1/audit_log'));
    return { events: page.audit_events, next: page.next_cursor };
  }

  private async more(cursor: string): Promise<void> {
    try {
      const page = data(await this.app.client.GET('/api/v1/audit_log', { params: { query: { cursor } } }));
      this.data = { events: [...(this.data?.events ?? []), ...page.audit_events], next: page.next_cursor };
    } catch (error) {
      this.notice = { text: describe(error, this.app.t), error: true };
    }
  }

  protected view({ events, next }: { events: AuditEvent[]; next: string | null }): TemplateResult {
    const { t, locale } = this.app;
    const who = (e: AuditEvent) => (e.actor.kind === 'wallet' ? e.actor.address : `${t.keys}: ${e.actor.id}`);
    return html`<h1>${t.audit}</h1>
      ${this.noticeView()}
      ${
        events.length === 0
          ? html`<p>${t.none}</p>`
          : html`<div class="table"><table>
          <thead><tr><th>${t.date}</th><th>${t.who}</th><th>${t.action}</th><th>id</th></tr></thead>
          <tbody>${events.map(
            (e) => html`<tr>
              <td>${when(e.created_at, locale)}</td>
              <td class="hash">${who(e)}</td>
              <td><code>${e.action}</code></td>
              <td class="hash">${e.subject_id ?? ''}</td>
            </tr>`,
          )}</tbody>
        </table></div>`
      }
      ${next ? html`<button type="button" @click=${() => void this.more(next)}>${t.more}</button>` : nothing}`;
  }
}

if (!customElements.get('console-audit')) customElements.define('console-audit', AuditPage);
