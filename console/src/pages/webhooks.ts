/**
 * Webhooks: the signing secret (shown, rotated), a test event of each type sent to a product's endpoint, and
 * each product's deliveries with every attempt, redelivered.
 */
import type { components } from '@checkout/client';
import { productTestEvents } from '@checkout/core/webhookEvents';
import { html, nothing, type TemplateResult } from 'lit';
import { state } from 'lit/decorators.js';
import { data } from '../api.ts';
import { when } from '../format.ts';
import { ConsolePage } from '../page.ts';

type Product = components['schemas']['Product'];
type Delivery = components['schemas']['WebhookDelivery'];

const testEvents = productTestEvents;

class WebhooksPage extends ConsolePage<{ products: Product[]; deliveries: Delivery[] }> {
  @state() private productId = '';
  @state() private secret: string | undefined;
  /** What the receiver answered the last test event's first attempt. */
  @state() private testAnswer: string | undefined;

  protected async load() {
    const products = data(await this.app.client.GET('/api/v1/products')).products;
    this.productId ||= products[0]?.id ?? '';
    const deliveries = this.productId
      ? data(
          await this.app.client.GET('/api/v1/products/{id}/webhook_deliveries', {
            params: { path: { id: this.productId } },
          }),
        ).webhook_deliveries
      : [];
    return { products, deliveries };
  }

  private async showSecret(rotate: boolean): Promise<void> {
    await this.act(async () => {
      const answer = rotate
        ? await this.app.client.POST('/api/v1/webhook_secret/rotate', {})
        : await this.app.client.GET('/api/v1/webhook_secret');
      this.secret = data(answer).webhook_secret.secret;
    });
  }

  private sendTest(event: SubmitEvent): void {
    event.preventDefault();
    const type = (event.currentTarget as HTMLFormElement).elements.namedItem('event') as HTMLSelectElement;
    const { t } = this.app;
    void this.act(async () => {
      const sent = data(
        await this.app.client.POST('/api/v1/products/{id}/webhook_test_events', {
          params: { path: { id: this.productId } },
          body: { event: type.value as (typeof testEvents)[number] },
        }),
      ).webhook_delivery;
      const first = sent.attempts[0];
      this.testAnswer = first ? t.testAnswered(first.status_code ?? first.error ?? '—') : t.testQueued;
    });
  }

  private redeliver(delivery: Delivery): void {
    void this.act(async () =>
      data(
        await this.app.client.POST('/api/v1/webhook_deliveries/{id}/redeliver', {
          params: { path: { id: delivery.id } },
        }),
      ),
    );
  }

  /** Each attempt of a delivery: when, what the receiver answered (or the error), and its first words. */
  private attempts(d: Delivery): TemplateResult {
    const { t, locale } = this.app;
    if (d.attempts.length === 0) return html`${d.attempt_count}`;
    return html`<ol class="attempts">${d.attempts.map(
      (a) => html`<li>
        ${t.attemptLine(a.attempt, when(a.started_at, locale), a.status_code ?? a.error ?? '—', a.duration_ms)}
        ${a.response_excerpt ? html`<code>${a.response_excerpt.slice(0, 120)}</code>` : nothing}
      </li>`,
    )}</ol>`;
  }

  /** The signing secret, shown and rotated only by a role holding `webhooks:write` (which reading it needs too). */
  private secretView(): TemplateResult {
    const { t } = this.app;
    return html`<h2>${t.secret}</h2>
      <p class="row">
        ${this.secret ? html`<code>${this.secret}</code>` : nothing}
        <button type="button" @click=${() => void this.showSecret(false)}>${t.show}</button>
        <button type="button" @click=${() => void this.showSecret(true)}>${t.rotate}</button>
      </p>`;
  }

  protected view({ products, deliveries }: { products: Product[]; deliveries: Delivery[] }): TemplateResult {
    const { t, locale } = this.app;
    const writes = this.may('webhooks:write');
    return html`<h1>${t.webhooks}</h1>
      ${writes ? this.secretView() : nothing}
      ${this.noticeView()}
      <h2>${t.deliveries}</h2>
      ${
        writes && this.productId
          ? html`<form aria-label=${t.testEvent} @submit=${(e: SubmitEvent) => this.sendTest(e)}>
            <label>${t.testEvent}<select name="event">${testEvents.map((e) => html`<option>${e}</option>`)}</select></label>
            <button type="submit">${t.send}</button>
          </form>
          ${this.testAnswer ? html`<p role="status">${this.testAnswer}</p>` : nothing}`
          : nothing
      }
      <label>${t.product}<select @change=${(e: Event) => {
        this.productId = (e.target as HTMLSelectElement).value;
        void this.reload();
      }}>${products.map((p) => html`<option value=${p.id} ?selected=${p.id === this.productId}>${p.name}</option>`)}</select></label>
      ${
        deliveries.length === 0
          ? html`<p>${t.none}</p>`
          : html`<div class="table"><table>
          <thead><tr><th>${t.date}</th><th>${t.event}</th><th>${t.status}</th><th>${t.attempts}</th><th><span class="visually-hidden">${t.redeliver}</span></th></tr></thead>
          <tbody>${deliveries.map(
            (d) => html`<tr>
              <td>${when(d.created_at, locale)}</td>
              <td><code>${d.event_type}</code>${d.test ? html` <span class="muted">(${t.testMark})</span>` : nothing}</td>
              <td>${d.status}${d.last_status_code ? ` (${d.last_status_code})` : ''}</td>
              <td>${this.attempts(d)}</td>
              <td>${writes ? html`<button type="button" @click=${() => this.redeliver(d)}>${t.redeliver}</button>` : nothing}</td>
            </tr>`,
          )}</tbody>
        </table></div>`
      }`;
  }
}

if (!customElements.get('console-webhooks')) customElements.define('console-webhooks', WebhooksPage);
