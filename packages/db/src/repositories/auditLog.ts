/** The audit log: who did what to which record of a merchant's, and when; newest first, by cursor. */
import { randomUUID } from 'node:crypto';
import type { Actor, AuditAction } from '@checkout/core';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../schema.ts';

/** One thing done: by whom, what, to which record (if any), with what else it was given. */
export interface AuditEntry {
  merchantId: string;
  actor: Actor;
  action: AuditAction;
  subject?: string | null;
  detail?: Record<string, unknown>;
}

/** Writes one line of the merchant's audit log (in the caller's transaction, beside what it records). */
export async function recordAudit(db: Kysely<Database>, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_events')
    .values({
      id: randomUUID(),
      merchant_id: entry.merchantId,
      actor_kind: entry.actor.kind,
      actor: entry.actor.kind === 'api_key' ? entry.actor.id : entry.actor.address,
      action: entry.action,
      subject_id: entry.subject ?? null,
      detail: JSON.stringify(entry.detail ?? {}),
      created_at: new Date(),
    })
    .execute();
}

/**
 * A page of the merchant's audit log, newest first: `limit` lines older than `cursor` (a previous page's
 * `next_cursor`), and the cursor of the page after, or null when none is left.
 */
export async function listAuditEvents(
  db: Kysely<Database>,
  merchantId: string,
  page: { limit: number; cursor?: string },
) {
  let query = db
    .selectFrom('audit_events')
    .select([
      'id',
      sql<string>`seq::text`.as('seq'),
      'actor_kind',
      'actor',
      'action',
      'subject_id',
      'detail',
      'created_at',
    ])
    .where('merchant_id', '=', merchantId)
    .orderBy('audit_events.seq', 'desc')
    .limit(page.limit + 1);
  if (page.cursor) query = query.where('audit_events.seq', '<', page.cursor);
  const rows = await query.execute();
  const shown = rows.slice(0, page.limit);
  return {
    audit_events: shown.map((row) => ({
      id: row.id,
      actor:
        row.actor_kind === 'api_key'
          ? { kind: 'api_key' as const, id: row.actor }
          : { kind: 'wallet' as const, address: row.actor },
      action: row.action as AuditAction,
      subject_id: row.subject_id,
      detail: row.detail,
      created_at: row.created_at.toISOString(),
    })),
    next_cursor: rows.length > page.limit ? (shown.at(-1)?.seq ?? null) : null,
  };
}
