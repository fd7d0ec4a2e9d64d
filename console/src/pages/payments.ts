/**
 * The payments list: resolved payments newest first, filtered (status, exception, mode, dates) and searched
 * (transaction hash, e-mail, id), a page at a time; the same filters exported as CSV.
 */
import type { components } from '@checkout/client';
import { paymentExceptionStatuses } from '@checkout/core/paymentException';
import { html, nothing, type TemplateResult } from 'lit';
import { state } from 'lit/decorators.js';
import { data } from '../api.ts';
import { amount, short, when } from '../format.ts';
import { LiveRefresh } from '../live.ts';
import { ConsolePage, describe, formFields } from '../page.ts';

type Payment = components['schemas']['ResolvedPayment'];
type Query = NonNullable<
  NonNullable<import('@checkout/client').paths['/api/v1/resolved_payments']['get']['parameters']['query']>
>;
type Filters = Omit<Query, 'cursor' | 'limit'>;

const statuses = ['succeeded', 'failed', 'reversed'] as const;
const exceptions = paymentExceptionStatuses;

/** The rows of a page the API answers by default, and the most it answers at once. */
const pageRows = 50;
const maxRows = 200;

/** A form's date (yyyy-mm-dd) as the start of that day in UTC. */
const day = (value: string) => `${value}T00:00:00Z`;

class PaymentsPage extends ConsolePage<{ payments: Payment[]; next: string | null }> {
  @state() private filters: Filters = {};
  @state() private exporting = false;
  /**
   * A new or changed payment changes the first page: the list is loaded again with the filters shown, as
   * long as it was (the pages added with "Load more" stay, up to the API's {@link maxRows} in one answer).
   */
  private readonly live = new LiveRefresh(
    this,
    () => this.data && { list: (headers) => this.firstPage(headers) },
    () => this.reload(),
  );

  /** The first page; as many rows as are shown now when "Load more" added some. */
  private firstPage(headers: Record<string, string> = {}) {
    const shown = this.data?.payments.length ?? 0;
    const query = shown > pageRows ? { ...this.filters, limit: Math.min(shown, maxRows) } : this.filters;
    return this.app.client.GET('/api/v1/resolved_payments', { params: { query }, headers });
  }

  protected async load() {
    const answer = await this.firstPage();
    const page = data(answer);
    this.live.note('list', answer);
    return { payments: page.resolved_payments, next: page.next_cursor };
  }

  private async more(cursor: string): Promise<void> {
    try {
      const page = data(
        await this.app.client.GET('/api/v1/resolved_payments', {
          params: { query: { ...this.filters, cursor } },
        }),
      );
      this.data = {
        payments: [...(this.data?.payments ?? []), ...page.resolved_payments],
        next: page.next_cursor,
      };
    } catch (error) {
      this.notice = { text: describe(error, this.app.t), error: true };
    }
  }

  private filter(event: SubmitEvent): void {
    const f = formFields(event);
    const { since, until, ...rest } = f;
    // Only the fields given: an empty one is no filter.
    this.filters = {
      ...rest,
      ...(since ? { since: day(since) } : {}),
      ...(until ? { until: day(until) } : {}),
    } as Filters;
    this.data = undefined;
    void this.reload();
  }

  /** The CSV of the current filters, saved by the browser as a file. */
  private async exportCsv(): Promise<void> {
    this.exporting = true;
    try {
      const csv = data(
        await this.app.client.GET('/api/v1/resolved_payments/export', {
          params: { query: this.filters },
          parseAs: 'text',
        }),
      );
      const link = document.createElement('a');
      link.href = URL.createObjectURL(new Blob([csv], { type: 'text/csv' }));
      link.download = 'payments.csv';
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
    } catch (error) {
      this.notice = { text: describe(error, this.app.t), error: true };
    } finally {
      this.exporting = false;
    }
  }

  private filterForm(): TemplateResult {
    const { t } = this.app;
    const select = (name: string, label: string, values: readonly string[], names: Record<string, string>) =>
      html`<label>${label}<select name=${name}>
        <option value="">${t.any}</option>
        ${values.map(
          (v) =>
            html`<option value=${v} ?selected=${(this.filters as Record<string, string>)[name] === v}>${names[v] ?? v}</option>`,
        )}
      </select></label>`;
    return html`<form role="search" @submit=${(e: SubmitEvent) => this.filter(e)}>
      <label>${t.search}<input name="q" type="search" placeholder=${t.searchHint} size="30" .value=${this.filters.q ?? ''} /></label>
      ${select('status', t.status, statuses, t.statuses)}
      ${select('exception', t.exception, exceptions, t.exceptions)}
      ${select('mode', t.mode, ['test', 'live'], { test: t.test, live: t.live })}
      <label>${t.since}<input name="since" type="date" .value=${this.filters.since?.slice(0, 10) ?? ''} /></label>
      <label>${t.until}<input name="until" type="date" .value=${this.filters.until?.slice(0, 10) ?? ''} /></label>
      <button type="submit">${t.apply}</button>
    </form>`;
  }

  protected view({ payments, next }: { payments: Payment[]; next: string | null }): TemplateResult {
    const { t, locale } = this.app;
    return html`<h1>${t.payments}</h1>
      ${this.filterForm()}
      <p class="row">
        <button type="button" ?disabled=${this.exporting} @click=${() => void this.exportCsv()}>
          ${this.exporting ? t.exporting : t.exportCsv}
        </button>
      </p>
      ${this.noticeView()}
      ${
        payments.length === 0
          ? html`<p>${t.none}</p>`
          : html`<div class="table"><table>
            <thead><tr><th>${t.date}</th><th>${t.amount}</th><th>${t.customer}</th><th>${t.exception}</th><th>${t.transaction}</th></tr></thead>
            <tbody>
              ${payments.map(
                (p) => html`<tr>
                  <td><a href=${`/console/payment/${p.id}`}>${when(p.payment.created_at, locale)}</a></td>
                  <td>${amount(p.payment.received_token_amount, p.payment.received_token.symbol)}${p.is_test ? html` <span class="muted">(${t.test})</span>` : nothing}</td>
                  <td>${p.user.email}</td>
                  <td>${p.payment.tx_failure ? t.statuses.failed : p.payment.exception_status ? t.exceptions[p.payment.exception_status] : t.exact}</td>
                  <td><span class="hash" title=${p.payment.tx_id}>${short(p.payment.tx_id)}</span></td>
                </tr>`,
              )}
            </tbody>
          </table></div>`
      }
      ${next ? html`<button type="button" @click=${() => void this.more(next)}>${t.more}</button>` : nothing}`;
  }
}

if (!customElements.get('console-payments')) customElements.define('console-payments', PaymentsPage);
