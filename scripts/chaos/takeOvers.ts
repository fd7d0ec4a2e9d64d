/**
 * E-mails sent again by the one retry after their sender died mid-send. Such an e-mail's claim was taken
 * over (`effect_claims.tries` > 1): nothing could tell whether the first copy had left before the crash, so
 * the service sends it once more, as its rule for an unknown outcome says (`packages/db` effects.ts). Both
 * copies carry the same Message-ID, which mail clients show as one message. The run reports these apart,
 * as it reports a webhook's exact retries. A Message-ID seen twice without a take-over, or seen more than
 * twice, stays a duplicate.
 */
import type pg from 'pg';

/** The Message-ID the service gives the e-mail claimed under `key`, for the e-mails the run counts. */
function messageIdOfKey(key: string): string | undefined {
  const [, kind, id, status, to] = key.split(':');
  if (kind === 'customer_receipt') return `<${id}.customer@stable-checkout>`;
  if (kind === 'merchant_notice') return `<${id}.merchant@stable-checkout>`;
  if (kind === 'unmatched_transfer') return `<${id}.unmatched@stable-checkout>`;
  if (kind === 'refund') return `<${id}.${status}.${to}.refund@stable-checkout>`;
  return undefined;
}

/** The Message-IDs of the e-mails whose claim a retry took over from a sender that died. */
export async function takenOverMessageIds(db: pg.Client): Promise<Set<string>> {
  const { rows } = await db.query<{ key: string }>(
    "select key from effect_claims where key like 'email:%' and tries > 1",
  );
  return new Set(rows.flatMap((r) => messageIdOfKey(r.key) ?? []));
}

/** `mails` without the second copy of each taken-over e-mail, and how many copies were set aside. */
export function setAsideTakeOvers<M extends { messageId: string }>(
  mails: readonly M[],
  takenOver: ReadonlySet<string>,
): { mails: M[]; takeOvers: number } {
  const seen = new Map<string, number>();
  for (const m of mails) seen.set(m.messageId, (seen.get(m.messageId) ?? 0) + 1);
  const kept: M[] = [];
  const first = new Set<string>();
  let takeOvers = 0;
  for (const m of mails) {
    if (first.has(m.messageId) && seen.get(m.messageId) === 2 && takenOver.has(m.messageId)) {
      takeOvers += 1;
      continue;
    }
    first.add(m.messageId);
    kept.push(m);
  }
  return { mails: kept, takeOvers };
}
