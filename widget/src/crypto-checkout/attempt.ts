/** One attempt to pay: the session the element opens with the shopper's details, and its expected payment. */
import { fromUnits, toUnits } from '../amount.ts';
import type { CheckoutApi, CheckoutSession, CheckoutView, SessionRequest } from '../api.ts';

/** What the shopper typed, as the session takes it. */
export interface ShopperDetails {
  email: string;
  custom_fields: Record<string, string>;
  /** The shopper's language, for the receipt the merchant may send. */
  locale: string;
}

/**
 * The session of one attempt and what it was opened with. For an open amount the attempt is the
 * expected payment its first opening created for that dollar amount: every later opening for the same
 * amount reuses it (one session, one workflow); another amount starts a new attempt.
 */
export class PaymentAttempt {
  /** What the session was opened with (without the amount), to open it again for another token. */
  body: SessionRequest | undefined;
  /** The open amount's attempt: its dollar amount and the expected payment the service created for it. */
  private owned: { dollarAmount: string; expectedPaymentId: string } | undefined;

  /** Whether an open amount's attempt exists for another amount than `dollars`. */
  isFor(dollars: string | null): boolean {
    return !this.owned || this.owned.dollarAmount === dollars;
  }

  /** Whether `session` is this element's own attempt (an open amount it opened), which it may close. */
  owns(session: CheckoutSession): boolean {
    return this.owned?.expectedPaymentId === session.expected_payment_id;
  }

  /** Continues an open amount's attempt this tab made before a reload or a Back. */
  resume(session: CheckoutSession): void {
    const dollars = fromUnits(toUnits(session.dollar_amount, 2), 2, 2);
    this.owned = { dollarAmount: dollars, expectedPaymentId: session.expected_payment_id };
  }

  /**
   * Opens the session for `sender`, or — without one — for paying from another device; `id` is the session
   * on screen, which this tab updates when it opened it.
   */
  async open(
    api: CheckoutApi,
    view: CheckoutView,
    dollars: string,
    details: ShopperDetails,
    token: string,
    sender?: string,
    id?: string,
  ): Promise<CheckoutSession> {
    const expectedPaymentId =
      view.expected_payment?.id ??
      (this.owned?.dollarAmount === dollars ? this.owned.expectedPaymentId : undefined);
    const body: SessionRequest = {
      ...(expectedPaymentId ? { expected_payment_id: expectedPaymentId } : { dollar_amount: dollars }),
      ...details,
      ...(sender ? { sender_address: sender } : {}),
      token_address: token,
    };
    const session = await api.openSession(view.slug, body, id);
    const { dollar_amount: _opened, ...payer } = body;
    this.body = { ...payer, expected_payment_id: session.expected_payment_id };
    if (!view.expected_payment)
      this.owned = { dollarAmount: dollars, expectedPaymentId: session.expected_payment_id };
    return session;
  }

  /**
   * Tells the service the session `id` is paid with `token` before the transfer; undefined when it already
   * knows.
   */
  async payWith(
    api: CheckoutApi,
    slug: string,
    token: string,
    id: string,
  ): Promise<CheckoutSession | undefined> {
    const body = this.body;
    if (!body || body.token_address.toLowerCase() === token.toLowerCase()) return undefined;
    const reopened = { ...body, token_address: token };
    const session = await api.openSession(slug, reopened, id);
    this.body = reopened;
    return session;
  }

  /** Forgets the attempt: the next opening starts a new one. */
  forget(): void {
    this.owned = undefined;
    this.body = undefined;
  }
}
