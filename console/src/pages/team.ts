/**
 * The team: the receiving wallets (always owners, never removed) and the wallets invited with a role; an
 * owner adds a wallet with a role and removes a member after confirming. The add form and the remove buttons
 * are shown only to a role holding `team:write`; the API refuses the others all the same.
 */
import type { components } from '@checkout/client';
import { html, nothing, type TemplateResult } from 'lit';
import { state } from 'lit/decorators.js';
import { ApiFailure, data } from '../api.ts';
import { when } from '../format.ts';
import { ConsolePage, describe, formFields } from '../page.ts';

type Member = components['schemas']['TeamMember'];
const invitable = ['admin', 'support', 'viewer'] as const;

/** A receiving wallet: the owner the service knows from the merchant's wallets, added by no one. */
const isReceiving = (m: Member) => m.role === 'owner' && m.added_by === null;

class TeamPage extends ConsolePage<Member[]> {
  /** The API's field errors of the last add, by field (`address`, `role`). */
  @state() private fieldErrors: Record<string, string> = {};
  /** The member whose removal waits for confirmation. */
  @state() private confirming: string | undefined;

  protected async load() {
    return data(await this.app.client.GET('/api/v1/team_members')).team_members;
  }

  private get manages(): boolean {
    return this.may('team:write');
  }

  private async add(event: SubmitEvent): Promise<void> {
    const form = event.currentTarget as HTMLFormElement;
    const { address = '', role = 'viewer' } = formFields(event);
    this.fieldErrors = {};
    this.notice = undefined;
    try {
      const body = { address, role: role as (typeof invitable)[number] };
      const added = data(await this.app.client.POST('/api/v1/team_members', { body })).team_member;
      form.reset();
      this.notice = { text: this.app.t.team.added(added.address), error: false };
      await this.reload();
    } catch (error) {
      const errors = error instanceof ApiFailure ? (error.body?.errors ?? []) : [];
      const onFields = errors.filter((e) => e.path === 'address' || e.path === 'role');
      this.fieldErrors = Object.fromEntries(onFields.map((e) => [e.path, e.message]));
      if (onFields.length === 0) this.notice = { text: describe(error, this.app.t), error: true };
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
    }
  }

  private removeMember(member: Member): void {
    this.confirming = undefined;
    void this.act(async () => {
      const answer = await this.app.client.DELETE('/api/v1/team_members/{address}', {
        params: { path: { address: member.address } },
      });
      data(answer);
    }, this.app.t.team.removed(member.address));
  }

  private field(name: string, label: string, control: TemplateResult, hint?: string): TemplateResult {
    const error = this.fieldErrors[name];
    return html`<label>${label}${control}
      ${hint ? html`<span class="muted" id=${`${name}-hint`}>${hint}</span>` : nothing}
      ${error ? html`<span class="error" id=${`${name}-error`}>${label} ${error}</span>` : nothing}
    </label>`;
  }

  private addForm(): TemplateResult {
    const { t } = this.app;
    const invalid = (name: string) => (this.fieldErrors[name] ? 'true' : 'false');
    const described = (name: string, hint: boolean) =>
      [hint ? `${name}-hint` : '', this.fieldErrors[name] ? `${name}-error` : ''].join(' ').trim() || nothing;
    return html`<form aria-label=${t.team.add} novalidate @submit=${(e: SubmitEvent) => void this.add(e)}>
      ${this.field(
        'address',
        t.team.wallet,
        html`<input name="address" required size="44" autocomplete="off" spellcheck="false"
          aria-invalid=${invalid('address')} aria-describedby=${described('address', true)} />`,
        t.team.addHint,
      )}
      ${this.field(
        'role',
        t.team.role,
        html`<select name="role" aria-invalid=${invalid('role')} aria-describedby=${described('role', false)}>
          ${invitable.map((r) => html`<option value=${r}>${r}</option>`)}
        </select>`,
      )}
      <button class="primary" type="submit">${t.team.add}</button>
    </form>`;
  }

  private action(m: Member): TemplateResult | typeof nothing {
    const { t } = this.app;
    if (isReceiving(m)) return html`<span class="muted">${t.team.receiving}</span>`;
    if (!this.manages) return nothing;
    if (this.confirming !== m.address)
      return html`<button type="button" aria-label=${`${t.team.remove} ${m.address}`}
        @click=${() => (this.confirming = m.address)}>${t.team.remove}</button>`;
    return html`<div role="group" aria-label=${t.team.confirm(m.address)} class="row">
      <span>${t.team.confirm(m.address)}</span>
      <button type="button" class="primary" @click=${() => this.removeMember(m)}>${t.team.confirmRemove}</button>
      <button type="button" @click=${() => (this.confirming = undefined)}>${t.team.keep}</button>
    </div>`;
  }

  protected view(members: Member[]): TemplateResult {
    const { t, locale, session } = this.app;
    return html`<h1>${t.team.title}</h1>
      <p>${t.team.intro}</p>
      <p>${t.team.yourRole(session.role)} ${t.team.roles[session.role] ?? ''}
        ${this.manages ? nothing : html`<strong>${t.team.onlyOwners}</strong>`}</p>
      ${this.manages ? this.addForm() : nothing}
      ${this.noticeView()}
      <div class="table"><table>
        <thead><tr><th>${t.team.wallet}</th><th>${t.team.role}</th><th>${t.team.addedBy}</th><th>${t.team.since}</th>
          <th><span class="visually-hidden">${t.team.remove}</span></th></tr></thead>
        <tbody>${members.map(
          (m) => html`<tr>
            <td class="hash">${m.address}</td>
            <td>${m.role} <span class="muted">${t.team.roles[m.role] ?? ''}</span></td>
            <td class="hash">${m.added_by ?? ''}</td>
            <td>${when(m.created_at, locale)}</td>
            <td>${this.action(m)}</td>
          </tr>`,
        )}</tbody>
      </table></div>`;
  }
}

if (!customElements.get('console-team')) customElements.define('console-team', TeamPage);
