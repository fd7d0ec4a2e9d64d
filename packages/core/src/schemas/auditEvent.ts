/** The audit log: who (an API key or a signed-in wallet) did what to which record, and when (wire shapes). */
import { z } from 'zod';
import { EvmAddress, namedObject, Timestamp, Uuid } from './common.ts';

/** What the audit log records. */
export const AuditAction = z.enum([
  'api_key.created',
  'api_key.rolled',
  'api_key.revoked',
  'refund.requested',
  'refund.canceled',
  'unmatched_transfer.attached',
  'unmatched_transfer.dismissed',
  'webhook_secret.rotated',
  'member.added',
  'member.removed',
]);
export type AuditAction = z.infer<typeof AuditAction>;

/** Who did it: one of the merchant's API keys, or a member signed in with their wallet. */
const AuditActor = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('api_key'), id: Uuid }),
    z.strictObject({ kind: z.literal('wallet'), address: EvmAddress }),
  ])
  .meta({ id: 'AuditActor' });

const AuditEvent = namedObject('AuditEvent', {
  id: Uuid,
  actor: AuditActor,
  action: AuditAction,
  /** The record acted on (a key, refund, transfer or member), when there is one. */
  subject_id: z.string().nullable(),
  /** What else the action was given (a refund's amount, a key's scopes, a dismissal's note). */
  detail: z.record(z.string(), z.unknown()),
  created_at: Timestamp,
});

/** GET /api/v1/audit_log: newest first, `limit` at a time; `cursor` is the previous page's `next_cursor`. */
export const AuditLogQuery = namedObject('AuditLogQuery', {
  limit: z.coerce.number().int().min(1).max(200).optional(),
  cursor: z
    .string()
    .regex(/^[1-9]\d{0,17}$/, 'must be a next_cursor this list answered')
    .optional(),
});

export const AuditLogResponse = namedObject('AuditLog', {
  audit_events: z.array(AuditEvent),
  /** The cursor of the next (older) page; null on the last page. */
  next_cursor: z.string().nullable(),
});
