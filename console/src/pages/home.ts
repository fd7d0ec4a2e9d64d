/**
 * Home: payments today and in the last 30 days (a bar per day, SVG of its own: thirty rectangles need no
 * chart library), the volume per chain and token (exact decimals from the API), each chain watcher's lag, and
 * what needs action — unmatched transfers waiting, refunds awaiting an address or payment, webhook deliveries
 * that failed, chain watchers behind or failing.
 */
import type { components } from '@checkout/client';
import { html, svg, type TemplateResult } from 'lit';
import { data } from '../api.ts';
import { amount, when } from '../format.ts';
import { ConsolePage } from '../page.ts';

type PaymentSummary = components['schemas']['PaymentSummary'];

interface Summary {
  days: number[];
  payments: PaymentSummary;
  transfers: number;
  refunds: number;
  failing: number;
}

const dayMs = 86_400_000;

class HomePage extends ConsolePage<Summary> {
  protected async load(): Promise<Summary> {
    const { client } = this.app;
    const start = new Date(Math.floor(Date.now() / dayMs) * dayMs - 29 * dayMs);
    const [summary, transfers, refunds, products] = await Promise.all([
      client.GET('/api/v1/payment_summary', { params: { query: { since: start.toISOString() } } }),
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
    const payments = data(summary).payment_summary;
    const days = new Array<number>(30).fill(0);
    for (const d of payments.days) {
      const index = Math.floor((Date.parse(`${d.day}T00:00:00Z`) - start.getTime()) / dayMs);
      if (index >= 0 && index < 30) days[index] = d.payments;
    }
    return {
      days,
      payments,
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
    const { t, locale } = this.app;
    const card = (label: string, value: string | number, href?: string) =>
      html`<div class="card"><strong>${value}</strong>${href ? html`<a href=${href}>${label}</a>` : label}</div>`;
    const { volumes, chain_watchers: watchers } = s.payments;
    const lagging = watchers.filter((w) => w.status !== 'ok' && w.status !== 'starting').length;
    return html`<h1>${t.home}</h1>
      <div class="cards">
        ${card(`${t.count} — ${t.today}`, s.days[29] ?? 0, '/console/payments')}
        ${card(`${t.count} — ${t.last30}`, s.payments.payments, '/console/payments')}
      </div>
      <h2>${t.volumeChart}</h2>
      ${this.chart(s.days)}
      <h2>${t.summary.volumes}</h2>
      ${
        volumes.length === 0
          ? html`<p>${t.none}</p>`
          : html`<div class="table"><table>
            <thead><tr><th>${t.summary.token}</th><th>${t.chain}</th><th>${t.volume}</th><th>${t.count}</th></tr></thead>
            <tbody>${volumes.map(
              (v) => html`<tr><td>${v.symbol}</td><td>${v.blockchain} ${v.network}</td>
                <td>${amount(v.amount, v.symbol)}</td><td>${v.payments}</td></tr>`,
            )}</tbody>
          </table></div>`
      }
      <h2>${t.needsAction}</h2>
      <div class="cards">
        ${card(t.openTransfers, s.transfers, '/console/inbox')}
        ${card(t.refundsToPay, s.refunds, '/console/refunds')}
        ${card(t.failingDeliveries, s.failing, '/console/webhooks')}
        ${card(t.summary.watchersBehind, lagging)}
      </div>
      <h2>${t.summary.watchers}</h2>
      ${
        watchers.length === 0
          ? html`<p>${t.none}</p>`
          : html`<div class="table"><table>
            <thead><tr><th>${t.chain}</th><th>${t.status}</th><th>${t.summary.lastTick}</th></tr></thead>
            <tbody>${watchers.map(
              (w) => html`<tr><td>${w.name}</td>
                <td class=${w.status === 'ok' || w.status === 'starting' ? '' : 'error'}>
                  ${t.summary.watcherStates[w.status] ?? w.status}: ${t.summary.lag(w.lag_blocks, w.lag_estimated)}</td>
                <td>${when(w.last_tick_at, locale)}</td></tr>`,
            )}</tbody>
          </table></div>`
      }`;
  }
}

if (!customElements.get('console-home')) customElements.define('console-home', HomePage);
