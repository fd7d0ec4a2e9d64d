/**
 * Home: payments today and in the last 30 days (a bar per day, SVG of its own: thirty rectangles need no
 * chart library), and what needs action — unmatched transfers waiting, refunds awaiting an address or payment,
 * webhook deliveries that failed.
 * Counts read at most one page of 200 payments; more show as "200+".
 */
import { html, svg, type TemplateResult } from 'lit';
import { data } from '../api.ts';
import { ConsolePage } from '../page.ts';

interface Summary {
  days: number[];
  today: string;
  month: string;
  transfers: number;
  refunds: number;
  failing: number;
}

const dayMs = 86_400_000;

class HomePage extends ConsolePage<Summary> {
  protected async load(): Promise<Summary> {
    const { client } = this.app;
    const start = new Date(Math.floor(Date.now() / dayMs) * dayMs - 29 * dayMs);
    const [payments, transfers, refunds, products] = await Promise.all([
      client.GET('/api/v1/resolved_payments', {
        params: { query: { since: start.toISOString(), limit: 200 } },
      }),
      client.GET('/api/v1/unmatched_transfers', { params: { query: { status: 'open' } } }),
      client.GET('/api/v1/refunds'),
      client.GET('/api/v1/products'),
    ]);
    // Failed deliveries of the first 20 products' webhooks.
    const deliveries = await Promise.all(
      data(products)
        .products.slice(0, 20)
        .map(async (p) => {
          const path = { id: p.id };
          const answer = await client.GET('/api/v1/products/{id}/webhook_deliveries', { params: { path } });
          return data(answer).webhook_deliveries.filter((d) => d.status === 'failed').length;
        }),
    );
    const page = data(payments);
    const days = new Array<number>(30).fill(0);
    for (const p of page.resolved_payments) {
      const index = Math.floor((Date.parse(p.payment.created_at) - start.getTime()) / dayMs);
      if (index >= 0 && index < 30) days[index] = (days[index] ?? 0) + 1;
    }
    const more = page.next_cursor ? '+' : '';
    return {
      days,
      today: `${days[29] ?? 0}${more && days[29] === page.resolved_payments.length ? more : ''}`,
      month: `${page.resolved_payments.length}${more}`,
      transfers: data(transfers).unmatched_transfers.length,
      refunds: data(refunds).refunds.filter(
        (r) => r.status === 'awaiting_address' || r.status === 'ready_to_pay',
      ).length,
      failing: deliveries.reduce((sum, n) => sum + n, 0),
    };
  }

  private chart(days: number[]): TemplateResult {
    const top = Math.max(1, ...days);
    return html`<svg viewBox="0 0 300 100" width="100%" height="120" role="img" aria-label=${`${this.app.t.volumeChart}: ${days.join(', ')}`}>
      ${days.map((n, i) => svg`<rect x=${i * 10 + 1} y=${100 - (n / top) * 100} width="8" height=${(n / top) * 100} fill="currentColor"></rect>`)}
    </svg>`;
  }

  protected view(s: Summary): TemplateResult {
    const { t } = this.app;
    const card = (label: string, value: string | number, href?: string) =>
      html`<div class="card"><strong>${value}</strong>${href ? html`<a href=${href}>${label}</a>` : label}</div>`;
    return html`<h1>${t.home}</h1>
      <div class="cards">
        ${card(`${t.count} — ${t.today}`, s.today, '/console/payments')}
        ${card(`${t.count} — ${t.last30}`, s.month, '/console/payments')}
      </div>
      <h2>${t.volumeChart}</h2>
      ${this.chart(s.days)}
      <h2>${t.needsAction}</h2>
      <div class="cards">
        ${card(t.openTransfers, s.transfers, '/console/inbox')}
        ${card(t.refundsToPay, s.refunds, '/console/refunds')}
        ${card(t.failingDeliveries, s.failing, '/console/webhooks')}
      </div>`;
  }
}

if (!customElements.get('console-home')) customElements.define('console-home', HomePage);
