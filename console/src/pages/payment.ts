/**
 * A payment's page: what was expected and received, its transaction, its refunds, a refund to request, and
 * its timeline (everything that happened to it).
 */
import type { components } from '@checkout/client';
import { css, html, nothing, type TemplateResult } from 'lit';
import { property } from 'lit/decorators.js';
import { data } from '../api.ts';
import { amount, chainIdOf, txLink, when } from '../format.ts';
import { LiveRefresh } from '../live.ts';
import { ConsolePage, formFields } from '../page.ts';
import { shared } from '../styles.ts';
import { timelineView } from './timeline.ts';

type Payment = components['schemas']['ResolvedPayment'];
type Refund = components['schemas']['Refund'];
type Timeline = components['schemas']['PaymentTimelineResponse'];
interface Loaded {
  payment: Payment;
  refunds: Refund[];
  timeline: Timeline;
}

class PaymentPage extends ConsolePage<Loaded> {
  static override styles = [
    shared,
    css`
      ol.timeline { padding-left: 1.25rem; display: grid; gap: 0.35rem; }
      ol.timeline time { color: var(--muted); font-size: 0.85rem; margin-right: 0.25rem; }
      pre { white-space: pre-wrap; overflow-wrap: anywhere; font-size: 0.8rem; margin: 0.25rem 0; }
    `,
  ];
  @property({ attribute: false }) paymentId = '';
  /** Whatever happens to the payment (an attempt, an e-mail, a refund's step) changes its timeline or refunds. */
  private readonly live = new LiveRefresh(
    this,
    () =>
      this.data && {
        timeline: (headers) => this.timeline(headers),
        refunds: (headers) => this.refunds(headers),
      },
    () => this.reload(),
  );

  private timeline(headers: Record<string, string> = {}) {
    const path = { id: this.paymentId };
    return this.app.client.GET('/api/v1/resolved_payments/{id}/timeline', { params: { path }, headers });
  }

  private refunds(headers: Record<string, string> = {}) {
    const path = { id: this.paymentId };
    return this.app.client.GET('/api/v1/resolved_payments/{id}/refunds', { params: { path }, headers });
  }

  protected async load(): Promise<Loaded> {
    const path = { id: this.paymentId };
    const [payment, refunds, timeline] = await Promise.all([
      this.app.client.GET('/api/v1/resolved_payments/{id}', { params: { path } }),
      this.refunds(),
      this.timeline(),
    ]);
    this.live.note('timeline', timeline);
    this.live.note('refunds', refunds);
    return {
      payment: data(payment).resolved_payment,
      refunds: data(refunds).refunds,
      timeline: data(timeline),
    };
  }

  private requestRefund(event: SubmitEvent): void {
    const f = formFields(event);
    const form = event.currentTarget as HTMLFormElement;
    const overpaid = (form.elements.namedItem('overpaid') as HTMLInputElement).checked;
    void this.act(async () => {
      data(
        await this.app.client.POST('/api/v1/resolved_payments/{id}/refunds', {
          params: { path: { id: this.paymentId } },
          body: {
            reason: f.reason ?? '',
            ...(overpaid ? { amount: 'overpaid' } : f.amount ? { amount: f.amount } : {}),
            ...(f.refund_address ? { refund_address: f.refund_address } : {}),
          },
        }),
      );
      form.reset();
    }, this.app.t.refundRequested);
  }

  protected view({ payment, refunds, timeline }: Loaded): TemplateResult {
    const { t, locale } = this.app;
    const p = payment.payment;
    const exception = p.tx_failure
      ? t.statuses.failed
      : p.exception_status
        ? t.exceptions[p.exception_status]
        : t.exact;
    return html`<p><a href="/console/payments">${t.back}</a></p>
      <h1>${t.payment} ${amount(p.received_token_amount, p.received_token.symbol)}</h1>
      <dl>
        <dt>${t.date}</dt><dd>${when(p.created_at, locale)}</dd>
        <dt>${t.product}</dt><dd>${payment.slug}</dd>
        <dt>${t.customer}</dt><dd>${payment.user.email}</dd>
        <dt>${t.expected}</dt><dd>${amount(p.expected_token_amount, p.expected_token.symbol)} ($${payment.dollar_amount})</dd>
        <dt>${t.received}</dt><dd>${amount(p.received_token_amount, p.received_token.symbol)}</dd>
        <dt>${t.exception}</dt><dd>${exception}</dd>
        <dt>${t.refunded}</dt><dd>${amount(p.refunded_amount, p.received_token.symbol)}</dd>
        <dt>${t.chain}</dt><dd>${p.received_token.blockchain} ${p.received_token.network}</dd>
        <dt>${t.transaction}</dt><dd>${txLink(chainIdOf(p.received_token), p.tx_id)}</dd>
        <dt>${t.sender}</dt><dd class="hash">${p.sender_address}</dd>
        <dt>id</dt><dd class="hash">${payment.id}</dd>
      </dl>
      <h2>${t.refunds}</h2>
      ${
        refunds.length === 0
          ? html`<p>${t.none}</p>`
          : html`<ul>
            ${refunds.map(
              (
                r,
              ) => html`<li>${amount(r.amount, r.token.symbol)} — ${t.refundStates[r.status]} — ${when(r.created_at, locale)}
                ${r.tx_hash ? txLink(r.chain_id, r.tx_hash) : nothing}</li>`,
            )}
          </ul>`
      }
      <p><a href="/console/refunds">${t.refunds}</a></p>
      <h2>${t.timeline.title}</h2>
      ${timelineView(timeline, t, locale)}
      ${
        this.may('refunds:write')
          ? html`<h2>${t.requestRefund}</h2>
      <form @submit=${(e: SubmitEvent) => this.requestRefund(e)}>
        <label>${t.refundAmount}<input name="amount" inputmode="decimal" pattern="\\d+(\\.\\d+)?" /></label>
        <label class="row"><input name="overpaid" type="checkbox" /> ${t.refundOverpaid}</label>
        <label>${t.reason}<input name="reason" required maxlength="500" /></label>
        <label>${t.refundAddress}<input name="refund_address" size="44" /></label>
        <button class="primary" type="submit">${t.request}</button>
      </form>`
          : nothing
      }
      ${this.noticeView()}`;
  }
}

if (!customElements.get('console-payment')) customElements.define('console-payment', PaymentPage);
