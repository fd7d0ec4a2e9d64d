/**
 * API keys: the account's working keys with their scopes and last use; a new key holding chosen scopes
 * (its secret shown once), a key rolled with an overlap during which the old one still works, revoked.
 */
import type { components } from '@checkout/client';
import { scopes } from '@checkout/core/access';
import { html, nothing, type TemplateResult } from 'lit';
import { state } from 'lit/decorators.js';
import { data } from '../api.ts';
import { when } from '../format.ts';
import { ConsolePage, formFields } from '../page.ts';

type ApiKey = components['schemas']['ApiKey'];

class KeysPage extends ConsolePage<ApiKey[]> {
  /** A secret the API answered once (a new or rolled key). */
  @state() private secret: string | undefined;

  protected async load() {
    return data(await this.app.client.GET('/api/v1/api_keys')).api_keys;
  }

  private create(event: SubmitEvent): void {
    const form = event.currentTarget as HTMLFormElement;
    const { name = '' } = formFields(event);
    const chosen = scopes.filter((s) => (form.elements.namedItem(s) as HTMLInputElement | null)?.checked);
    void this.act(async () => {
      this.secret = data(
        await this.app.client.POST('/api/v1/api_keys', { body: { name, scopes: chosen } }),
      ).key;
      form.reset();
    });
  }

  private roll(key: ApiKey, event: SubmitEvent): void {
    const { overlap = '0' } = formFields(event);
    void this.act(async () => {
      const answer = await this.app.client.POST('/api/v1/api_keys/{id}/roll', {
        params: { path: { id: key.id } },
        body: { overlap_minutes: Number(overlap) },
      });
      this.secret = data(answer).key;
    });
  }

  private revoke(key: ApiKey): void {
    void this.act(async () => {
      const answer = await this.app.client.DELETE('/api/v1/api_keys/{id}', {
        params: { path: { id: key.id } },
      });
      data(answer);
    });
  }

  private item(key: ApiKey): TemplateResult {
    const { t, locale } = this.app;
    return html`<li class="card">
      <h2>${key.name ?? key.prefix}</h2>
      <p><code>${key.prefix}…</code> ${key.mode}</p>
      <p>${t.scopes}: ${key.scopes.join(', ')}</p>
      <p>${t.lastUsed}: ${key.last_used_at ? when(key.last_used_at, locale) : t.never}</p>
      ${key.expires_at ? html`<p class="error">${t.keyStops(when(key.expires_at, locale))}</p>` : nothing}
      ${
        this.may('keys:write')
          ? html`<form aria-label=${`${t.roll} ${key.name ? `${key.name} ` : ''}${key.prefix}`} @submit=${(e: SubmitEvent) => this.roll(key, e)}>
        <label>${t.overlap}<input name="overlap" type="number" min="0" max="43200" value="60" /></label>
        <button type="submit">${t.roll}</button>
      </form>
      <button type="button" @click=${() => this.revoke(key)}>${t.revoke}</button>`
          : nothing
      }
    </li>`;
  }

  protected view(keys: ApiKey[]): TemplateResult {
    const { t } = this.app;
    return html`<h1>${t.keys}</h1>
      ${
        this.may('keys:write')
          ? html`<form aria-label=${t.create} @submit=${(e: SubmitEvent) => this.create(e)}>
        <label>${t.name}<input name="name" required maxlength="100" /></label>
        <fieldset>
          <legend>${t.scopes}</legend>
          <div class="row">
            ${scopes.map((s) => html`<label class="row"><input type="checkbox" name=${s} /> ${s}</label>`)}
          </div>
        </fieldset>
        <button class="primary" type="submit">${t.create}</button>
      </form>`
          : nothing
      }
      ${this.noticeView()}
      ${this.secret ? html`<p role="status">${t.newKey} <code>${this.secret}</code></p>` : nothing}
      ${keys.length === 0 ? html`<p>${t.none}</p>` : html`<ul class="cards">${keys.map((k) => this.item(k))}</ul>`}`;
  }
}

if (!customElements.get('console-keys')) customElements.define('console-keys', KeysPage);
