/** The shopper's form: the amount (open amounts), the e-mail and the product's custom fields, their checks. */
import { html, nothing, type ReactiveControllerHost, type TemplateResult } from 'lit';
import { formatUsd, maxDollarAmount, parseDollarAmount } from '../amount.ts';
import type { CheckoutView } from '../api.ts';
import type { Localized } from '../i18n.ts';

/** What is wrong with a field, as the key of its text. */
type FieldProblem =
  | 'amountRequired'
  | 'amountFormat'
  | 'amountPositive'
  | 'amountMax'
  | 'emailInvalid'
  | 'fieldRequired';
const amountProblems = {
  required: 'amountRequired',
  format: 'amountFormat',
  positive: 'amountPositive',
  max: 'amountMax',
} as const satisfies Record<string, FieldProblem>;
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const autocompletes: Record<string, string> = {
  full_name: 'name',
  company: 'organization',
  job_title: 'organization-title',
};

/** Whether the shopper types the amount: an open amount without the merchant's expected payment. */
const typesAmount = (view: CheckoutView): boolean => view.open_amount && !view.expected_payment;

/** The form's values and errors; every change renders the host again. */
export class CheckoutForm {
  amount = '';
  email = '';
  fields: Record<string, string> = {};
  private errors: Record<string, FieldProblem | undefined> = {};
  private readonly host: ReactiveControllerHost & { renderRoot: HTMLElement | DocumentFragment };

  constructor(host: ReactiveControllerHost & { renderRoot: HTMLElement | DocumentFragment }) {
    this.host = host;
  }

  /** Sets a value (`amount`, `email` or a custom field's name) and clears its error. */
  set(id: string, value: string): void {
    if (id === 'amount') this.amount = value;
    else if (id === 'email') this.email = value;
    else this.fields = { ...this.fields, [id]: value };
    const key = id === 'amount' || id === 'email' ? id : `field-${id}`;
    if (this.errors[key]) this.errors = { ...this.errors, [key]: undefined };
    this.host.requestUpdate();
  }

  /** A pre-filled e-mail (`before` was the previous one) never overwrites what the shopper typed. */
  prefill(email: string, before: string): void {
    if (this.email === '' || this.email === before) this.email = email;
  }

  /** One value per custom field of the product, keeping those already typed. */
  fieldsOf(view: CheckoutView): void {
    this.fields = Object.fromEntries(view.custom_fields.map((f) => [f, this.fields[f] ?? '']));
  }

  /** What the session is opened with. */
  values(view: CheckoutView): { email: string; custom_fields: Record<string, string> } {
    return {
      email: this.email.trim(),
      custom_fields: Object.fromEntries(view.custom_fields.map((f) => [f, this.fields[f]?.trim() ?? ''])),
    };
  }

  /** Checks every field; on a problem, shows each and focuses the first invalid one. */
  validate(view: CheckoutView, locale: string): boolean {
    const errors: Record<string, FieldProblem> = {};
    if (typesAmount(view)) {
      const { problem } = parseDollarAmount(this.amount, locale);
      if (problem) errors.amount = amountProblems[problem];
    }
    if (!emailPattern.test(this.email.trim())) errors.email = 'emailInvalid';
    for (const field of view.custom_fields) {
      if (!this.fields[field]?.trim()) errors[`field-${field}`] = 'fieldRequired';
    }
    this.errors = errors;
    this.host.requestUpdate();
    const first = Object.keys(errors)[0];
    if (!first) return true;
    void this.host.updateComplete.then(() =>
      this.host.renderRoot.querySelector<HTMLInputElement>(`#${first}`)?.focus(),
    );
    return false;
  }

  /** The form; `onAmount` hears the shopper change the amount. */
  render(
    view: CheckoutView,
    locked: boolean,
    { locale, messages: t }: Localized,
    onAmount: () => void,
  ): TemplateResult {
    const input = (
      id: string,
      label: string,
      value: string,
      key: string,
      extra: Partial<{ type: string; autocomplete: string; inputmode: string }> = {},
    ) => {
      const error = this.errors[id];
      return html`<div part="field">
        <label for=${id}>${label}</label>
        <input
          part="input"
          id=${id}
          name=${id}
          type=${extra.type ?? 'text'}
          autocomplete=${extra.autocomplete ?? 'off'}
          inputmode=${extra.inputmode ?? nothing}
          required
          .value=${value}
          ?disabled=${locked}
          aria-invalid=${error ? 'true' : 'false'}
          aria-describedby=${error ? `${id}-error` : nothing}
          @input=${(e: Event) => {
            this.set(key, (e.target as HTMLInputElement).value);
            if (key === 'amount') onAmount();
          }}
        />
        ${
          error
            ? html`<span class="field-error" id=${`${id}-error`}
                >${error === 'amountMax' ? t.amountMax(formatUsd(maxDollarAmount, locale)) : t[error]}</span
              >`
            : nothing
        }
      </div>`;
    };
    return html`<form part="form" novalidate @submit=${(e: Event) => e.preventDefault()}>
      ${typesAmount(view) ? input('amount', t.amountUsd, this.amount, 'amount', { inputmode: 'decimal' }) : nothing}
      ${input('email', t.email, this.email, 'email', { type: 'email', autocomplete: 'email' })}
      ${view.custom_fields.map((field) =>
        input(`field-${field}`, t.customField[field] ?? field, this.fields[field] ?? '', field, {
          autocomplete: autocompletes[field] ?? 'off',
        }),
      )}
    </form>`;
  }
}
