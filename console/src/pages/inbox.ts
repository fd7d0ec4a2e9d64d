/**
 * The inbox of unmatched transfers: money into the wallet that no checkout took — attached to an order
 * (an open expected payment or a resolved payment it tops up), refunded, or dismissed with a note.
 */
import type { CheckoutApiError, components } from '@checkout/client';
import { html, nothing, type TemplateResult } from 'lit';
import { data } from '../api.ts';
import { amount, short, txLink, when } from '../format.ts';
import { LiveRefresh } from '../live.ts';
import { ConsolePage, formFields } from '../page.ts';

type Transfer = components['schemas']['UnmatchedTransfer'];

class InboxPage extends ConsolePage<Transfer[]> {
  /**
   * A transfer that arrives, or one settled elsewhere, shows here without a reload; not while the merchant
   * is filling in one of the page's forms.
   */
  private readonly live = new LiveRefresh(
    this,
    () => (this.data && !this.filling() ? { list: (headers) => this.list(headers) } : undefined),
    () => this.reload(),
  );

  /** Whether one of the cards' fields has focus or holds text the merchant typed. */
  private filling(): boolean {
    const active = this.shadowRoot?.activeElement;
    return [...this.renderRoot.querySelectorAll('input')].some((i) => i === active || i.value !== '');
  }

  private list(headers: Record<string, string> = {}) {
    return this.app.client.GET('/api/v1/unmatched_transfers', {
      params: { query: { status: 'open' } },
      headers,
    });
  }

  protected async load() {
    const answer = await this.list();
    this.live.note('list', answer);
    return data(answer).unmatched_transfers;
  }

  private attach(transfer: Transfer, event: SubmitEvent): void {
    const { to = '' } = formFields(event);
    const path = { id: transfer.id };
    void this.act(async () => {
      // The id is either kind: a resolved payment's is tried first, then an expected payment's.
      const first = await this.app.client.POST('/api/v1/unmatched_transfers/{id}/attach', {
        params: { path },
        body: { resolved_payment_id: to },
      });
      const refused = first.error as CheckoutApiError | undefined;
      const noSuchPayment =
        first.response.status === 404 || refused?.errors?.some((e) => e.path === 'resolved_payment_id');
      if (!noSuchPayment) return data(first);
      return data(
        await this.app.client.POST('/api/v1/unmatched_transfers/{id}/attach', {
          params: { path },
          body: { expected_payment_id: to },
        }),
      );
    });
  }

  private refund(transfer: Transfer, event: SubmitEvent): void {
    const { reason = '' } = formFields(event);
    void this.act(async () =>
      data(
        await this.app.client.POST('/api/v1/unmatched_transfers/{id}/refunds', {
          params: { path: { id: transfer.id } },
          body: { reason },
        }),
      ),
    );
  }

  private dismiss(transfer: Transfer, event: SubmitEvent): void {
    const { note = '' } = formFields(event);
    void this.act(async () =>
      data(
        await this.app.client.POST('/api/v1/unmatched_transfers/{id}/dismiss', {
          params: { path: { id: transfer.id } },
          body: { note },
        }),
      ),
    );
  }

  private item(tr: Transfer): TemplateResult {
    const { t, locale } = this.app;
    // Each card's forms are named after its transfer: form landmarks must differ across the page.
    const named = (action: string) => `${action} ${amount(tr.amount, tr.token.symbol)} ${short(tr.tx_hash)}`;
    const field = (name: string, label: string) =>
      html`<label>${label}<input name=${name} required maxlength="500" /></label>`;
    return html`<li class="card">
      <p><strong>${amount(tr.amount, tr.token.symbol)}</strong> ${t.kinds[tr.kind] ?? tr.kind} — ${when(tr.created_at, locale)}</p>
      <dl>
        <dt>${t.sender}</dt><dd class="hash">${tr.sender_address}</dd>
        ${tr.deposit_address ? html`<dt>${t.depositAddress}</dt><dd class="hash">${tr.deposit_address}</dd>` : nothing}
        <dt>${t.transaction}</dt><dd>${txLink(tr.chain_id, tr.tx_hash)}</dd>
        ${tr.resolved_payment_id ? html`<dt>${t.payment}</dt><dd><a href=${`/console/payment/${tr.resolved_payment_id}`}>${tr.resolved_payment_id}</a></dd>` : nothing}
      </dl>
      ${
        this.may('transfers:write')
          ? html`<form aria-label=${named(t.attach)} @submit=${(e: SubmitEvent) => this.attach(tr, e)}>
        ${field('to', t.attachTo)}<button type="submit">${t.attach}</button>
      </form>
      <form aria-label=${named(t.refund)} @submit=${(e: SubmitEvent) => this.refund(tr, e)}>
        ${field('reason', t.reason)}<button type="submit">${t.refund}</button>
      </form>
      <form aria-label=${named(t.dismiss)} @submit=${(e: SubmitEvent) => this.dismiss(tr, e)}>
        ${field('note', t.note)}<button type="submit">${t.dismiss}</button>
      </form>`
          : nothing
      }
    </li>`;
  }

  protected view(transfers: Transfer[]): TemplateResult {
    const { t } = this.app;
    return html`<h1>${t.inbox}</h1>
      ${this.noticeView()}
      ${transfers.length === 0 ? html`<p>${t.none}</p>` : html`<ul class="cards">${transfers.map((tr) => this.item(tr))}</ul>`}`;
  }
}

if (!customElements.get('console-inbox')) customElements.define('console-inbox', InboxPage);
