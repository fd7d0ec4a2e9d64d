/**
 * A payment's timeline as a list, oldest first: each entry its time and what happened, transactions linked to
 * their chain's explorer, each webhook attempt with its status code and the start of the receiver's answer.
 */
import type { components } from '@checkout/client';
import { html, nothing, type TemplateResult } from 'lit';
import { amount, txLink, when } from '../format.ts';
import type { Messages } from '../i18n.ts';

type Entry = components['schemas']['PaymentTimelineEntry'];

/** What one entry says, in the page's language. */
function describeEntry(e: Entry, t: Messages): TemplateResult | string {
  const tl = t.timeline;
  switch (e.type) {
    case 'session_opened':
      return tl.session_opened;
    case 'transfer_seen':
      return html`${tl.transfer_seen(e.block_number)} ${txLink(e.chain_id, e.tx_hash)}`;
    case 'unmatched_transfer':
      return html`${tl.unmatched_transfer(
        amount(e.amount, e.symbol),
        t.kinds[e.kind] ?? e.kind,
        tl.transferStates[e.status] ?? e.status,
      )} ${txLink(e.chain_id, e.tx_hash)}`;
    case 'confirmed':
      return tl.confirmed(e.confirmations, e.required_confirmations);
    case 'resolved': {
      const exception = e.tx_failure
        ? t.statuses.failed
        : e.exception_status
          ? t.exceptions[e.exception_status]
          : t.exact;
      return `${tl.resolved(amount(e.amount, e.symbol))} — ${exception}`;
    }
    case 'webhook_queued':
      return html`${tl.webhook_queued(e.event_type, e.url)} ${e.redelivery_of ? tl.redelivery : nothing}`;
    case 'webhook_attempt': {
      const outcome = e.status_code === null ? (e.error ?? tl.noAnswer) : `HTTP ${e.status_code}`;
      return html`${tl.webhook_attempt(e.event_type, e.attempt)}:
        <strong class=${e.status_code !== null && e.status_code < 300 ? 'ok' : 'error'}>${outcome}</strong>
        <span class="muted">(${e.duration_ms} ms)</span>
        ${e.response_excerpt ? html`<details><summary>${tl.answer}</summary><pre>${e.response_excerpt}</pre></details>` : nothing}`;
    }
    case 'email': {
      const kind =
        tl.emailKinds[e.kind] ??
        (e.kind.startsWith('refund_') ? `${t.refund}: ${t.refundStates[e.kind.slice(7)] ?? e.kind}` : e.kind);
      return `${tl.email(kind, tl.recipients[e.recipient] ?? e.recipient)} — ${tl.emailStatuses[e.status] ?? e.status}`;
    }
    case 'refund_requested':
      return `${tl.refund_requested(amount(e.amount, e.symbol))}: ${e.reason}`;
    case 'refund_paid':
      return html`${tl.refund_paid(amount(e.amount, e.symbol))} ${txLink(e.chain_id, e.tx_hash)}`;
    case 'refund_confirmed':
      return tl.refund_confirmed;
    case 'refund_canceled':
      return e.reason ? `${tl.refund_canceled}: ${e.reason}` : tl.refund_canceled;
    case 'refund_expired':
      return tl.refund_expired;
    case 'deposit_swept':
      return html`${tl.deposit_swept(e.gas_used, e.gas_spent_wei)} ${txLink(e.chain_id, e.tx_hash)}`;
    case 'reversed':
      return tl.reversed;
  }
}

/** The timeline's list, or "nothing yet". */
export function timelineView(
  timeline: { timeline: Entry[]; truncated: boolean },
  t: Messages,
  locale: string,
): TemplateResult {
  if (timeline.timeline.length === 0) return html`<p>${t.none}</p>`;
  return html`<ol class="timeline">
      ${timeline.timeline.map(
        (e) =>
          html`<li data-type=${e.type}><time datetime=${e.at}>${when(e.at, locale, true)}</time> ${describeEntry(e, t)}</li>`,
      )}
    </ol>
    ${timeline.truncated ? html`<p class="muted">${t.timeline.truncated}</p>` : nothing}`;
}
