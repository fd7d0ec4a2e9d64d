/**
 * Products: create one, activate or deactivate it (the one field `PATCH /api/v1/products/:id` takes), its
 * checkout link, a copyable embed snippet and a live preview of the element the snippet shows, its script
 * fetched from the service the first time a preview is opened. Creating and activating are shown only to a
 * role holding `products:write`.
 */
import type { components } from '@checkout/client';
import { html, nothing, type TemplateResult } from 'lit';
import { state } from 'lit/decorators.js';
import { data } from '../api.ts';
import { ConsolePage, formFields } from '../page.ts';

type Product = components['schemas']['Product'];

/** The element's ES module loader on this service (docs/widget.md, "ES module"): the snippet's element. */
const elementScript = '/widget/crypto-checkout.js';

/** The tags a merchant's page carries to show the product's checkout (docs/widget.md). */
function snippet(product: Product): string {
  return `<script src="${location.origin}/widget/crypto-checkout.iife.js" defer></script>\n<crypto-checkout slug="${product.slug}"></crypto-checkout>`;
}

class ProductsPage extends ConsolePage<Product[]> {
  /** The ids of the products whose preview is open. */
  @state() private previews = new Set<string>();

  protected async load() {
    return data(await this.app.client.GET('/api/v1/products')).products;
  }

  private create(event: SubmitEvent): void {
    const f = formFields(event);
    const form = event.currentTarget as HTMLFormElement;
    void this.act(async () => {
      data(
        await this.app.client.POST('/api/v1/products', {
          body: {
            product: {
              name: f.name ?? '',
              email: f.email ?? '',
              active: true,
              token: {
                blockchain: (f.blockchain ?? 'ethereum') as 'ethereum',
                network: (f.network ?? 'mainnet') as 'mainnet',
                address: f.address ?? '',
              },
            },
          },
        }),
      );
      form.reset();
    });
  }

  private setActive(product: Product, active: boolean): void {
    void this.act(async () =>
      data(
        await this.app.client.PATCH('/api/v1/products/{id}', {
          params: { path: { id: product.id } },
          body: { product: { active } },
        }),
      ),
    );
  }

  /** Opens or closes a product's preview; the element's script is fetched before the first one opens. */
  private async togglePreview(product: Product): Promise<void> {
    const open = new Set(this.previews);
    if (open.delete(product.id)) {
      this.previews = open;
      return;
    }
    try {
      await import(/* @vite-ignore */ elementScript);
      this.previews = open.add(product.id);
    } catch {
      this.notice = { text: this.app.t.failed, error: true };
    }
  }

  private async copy(text: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(text);
      this.notice = { text: this.app.t.copied, error: false };
    } catch {
      this.notice = { text: this.app.t.failed, error: true };
    }
  }

  private item(p: Product): TemplateResult {
    const { t } = this.app;
    const link = `${location.origin}/checkout/${p.slug}`;
    return html`<li class="card">
      <h2>${p.name}</h2>
      <p>${p.active ? t.active : t.deactivate} — ${p.tokens.map((k) => k.symbol).join(', ')}</p>
      <p>${t.checkoutLink}: <a href=${link} target="_blank" rel="noopener">${link}</a></p>
      <label>${t.embed}<textarea readonly rows="3" cols="40">${snippet(p)}</textarea></label>
      <div class="row">
        <button type="button" @click=${() => void this.copy(snippet(p))}>${t.copy}</button>
        <button type="button" aria-expanded=${this.previews.has(p.id) ? 'true' : 'false'}
          @click=${() => void this.togglePreview(p)}>${t.preview}</button>
        ${
          this.may('products:write')
            ? html`<button type="button" @click=${() => this.setActive(p, !p.active)}>${p.active ? t.deactivate : t.activate}</button>`
            : nothing
        }
      </div>
      ${
        this.previews.has(p.id)
          ? html`<section class="preview" aria-label=${t.previewOf(p.name)}><crypto-checkout slug=${p.slug}></crypto-checkout></section>`
          : nothing
      }
    </li>`;
  }

  protected view(products: Product[]): TemplateResult {
    const { t } = this.app;
    return html`<h1>${t.products}</h1>
      ${
        this.may('products:write')
          ? html`<form aria-label=${t.create} @submit=${(e: SubmitEvent) => this.create(e)}>
        <label>${t.name}<input name="name" required maxlength="200" /></label>
        <label>${t.email}<input name="email" type="email" required /></label>
        <label>${t.blockchain}<select name="blockchain">
          <option>ethereum</option><option>binance-smart-chain</option><option>polygon</option>
        </select></label>
        <label>${t.network}<select name="network"><option>mainnet</option><option>testnet</option></select></label>
        <label>${t.tokenAddress}<input name="address" required size="44" /></label>
        <button class="primary" type="submit">${t.create}</button>
      </form>`
          : nothing
      }
      ${this.noticeView()}
      ${products.length === 0 ? html`<p>${t.none}</p>` : html`<ul class="cards">${products.map((p) => this.item(p))}</ul>`}`;
  }
}

if (!customElements.get('console-products')) customElements.define('console-products', ProductsPage);
