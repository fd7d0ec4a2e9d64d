/**
 * Every refund of the wallet with its state; one ready to pay is paid here by the element's own refund
 * payment (`<refund-pay>`, the hosted pay page's element, fetched from the service), one not yet paid can be
 * canceled.
 */
import type { components } from '@checkout/client';
import { html, nothing, type TemplateResult } from 'lit';
import { state } from 'lit/decorators.js';
import { data } from '../api.ts';
import { consoleConfig } from '../config.ts';
import { amount, short, txLink, when } from '../format.ts';
import { LiveRefresh } from '../live.ts';
import { ConsolePage } from '../page.ts';

type Refund = components['schemas']['Refund'];

/** The pay link's token: its last path segment. */
const payToken = (url: string | null) => (url ? (new URL(url).pathname.split('/').pop() ?? '') : '');

class RefundsPage extends ConsolePage<Refund[]> {
  /** The refund being paid, with the element's tag ready. */
  @state() private paying: Refund | undefined;

  /** A refund claimed, paid, confirmed or expired elsewhere shows here without a reload; not while one is paid here. */
  private readonly live = new LiveRefresh(
    this,
    () => (this.data && !this.paying ? { list: (headers) => this.list(headers) } : undefined),
    () => this.reload(),
  );

  private list(headers: Record<string, string> = {}) {
    return this.app.client.GET('/api/v1/refunds', { headers });
  }

  protected async load() {
    const answer = await this.list();
    this.live.note('list', answer);
    return data(answer).refunds;
  }

  private async pay(refund: Refund): Promise<void> {
    const script = consoleConfig().refundPayScript;
    if (!script) {
      this.notice = { text: this.app.t.failed, error: true };
      return;
    }
    await import(/* @vite-ignore */ script);
    this.paying = refund;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('refund-pay')?.scrollIntoView();
  }

  private cancel(refund: Refund): void {
    void this.act(async () =>
      data(
        await this.app.client.POST('/api/v1/refunds/{id}/cancel', {
          params: { path: { id: refund.id } },
          body: {},
        }),
      ),
    );
  }

  private payPanel(refund: Refund): TemplateResult {
    const { t } = this.app;
    const rpc = consoleConfig().rpcUrls[String(refund.chain_id)];
    return html`<section aria-label=${t.pay}>
      <refund-pay token=${payToken(refund.pay_url)} rpc-url=${rpc ?? nothing} lang=${this.app.locale}></refund-pay>
      <button type="button" @click=${() => {
        this.paying = undefined;
        void this.reload();
      }}>${t.close}</button>
    </section>`;
  }

  protected view(refunds: Refund[]): TemplateResult {
    const { t, locale } = this.app;
    return html`<h1>${t.refunds}</h1>
      ${this.noticeView()}
      ${this.paying ? this.payPanel(this.paying) : nothing}
      ${
        refunds.length === 0
          ? html`<p>${t.none}</p>`
          : html`<div class="table"><table>
          <thead><tr><th>${t.date}</th><th>${t.amount}</th><th>${t.status}</th><th>${t.reason}</th><th>${t.transaction}</th><th><span class="visually-hidden">${t.pay}</span></th></tr></thead>
          <tbody>${refunds.map(
            (r) => html`<tr>
              <td>${when(r.created_at, locale)}</td>
              <td>${amount(r.amount, r.token.symbol)}</td>
              <td>${t.refundStates[r.status]}</td>
              <td>${r.reason}${r.resolved_payment_id ? html` <a href=${`/console/payment/${r.resolved_payment_id}`}>${short(r.resolved_payment_id)}</a>` : nothing}</td>
              <td>${txLink(r.chain_id, r.tx_hash)}</td>
              <td class="row">
                ${this.may('refunds:write') && r.status === 'ready_to_pay' && r.pay_url ? html`<button class="primary" type="button" @click=${() => void this.pay(r)}>${t.pay}</button>` : nothing}
                ${this.may('refunds:write') && (r.status === 'ready_to_pay' || r.status === 'awaiting_address') ? html`<button type="button" @click=${() => this.cancel(r)}>${t.cancel}</button>` : nothing}
                ${r.status === 'awaiting_address' && r.claim_url ? html`<a href=${r.claim_url} target="_blank" rel="noopener noreferrer">${t.claimLink}</a>` : nothing}
              </td>
            </tr>`,
          )}</tbody>
        </table></div>`
      }`;
  }
}

if (!customElements.get('console-refunds')) customElements.define('console-refunds', RefundsPage);
