/**
 * What a caller may do: the scopes an API key carries or a console member's role grants. Every route declares
 * the scope it needs (server/src/routes/declare.ts); the API answers 403 naming a missing scope.
 */
import { z } from 'zod';

/**
 * Each scope names a resource and whether it is read or changed; `all` holds every scope. `users` are Area B's
 * users, their KYC and payment details; `ramps` its quotes, offramps and onramps.
 */
export const scopes = [
  'payments:read',
  'payments:write',
  'refunds:read',
  'refunds:write',
  'transfers:read',
  'transfers:write',
  'products:read',
  'products:write',
  'webhooks:read',
  'webhooks:write',
  'keys:read',
  'keys:write',
  'team:read',
  'team:write',
  'audit:read',
  'users:read',
  'users:write',
  'ramps:read',
  'ramps:write',
  'all',
] as const;
// Pure: a bundle that reads only the names (the console) leaves zod out.
export const Scope = /* @__PURE__ */ z.enum(scopes);
export type Scope = z.infer<typeof Scope>;

/** The roles of a merchant's team; the merchant's receiving wallet is always `owner`. */
const roles = ['owner', 'admin', 'support', 'viewer'] as const;
export const Role = /* @__PURE__ */ z.enum(roles);
export type Role = z.infer<typeof Role>;

const reads = scopes.filter((s) => s.endsWith(':read'));

/** The scopes each role grants. */
export const roleScopes: Record<Role, readonly Scope[]> = {
  owner: ['all'],
  // Everything but the team: an admin cannot add, remove or promote members.
  admin: scopes.filter((s) => s !== 'all' && s !== 'team:write'),
  // Payments (an e-mail's resend, an order), refunds and the inbox of unmatched transfers.
  support: [...reads, 'payments:write', 'refunds:write', 'transfers:write'],
  viewer: reads,
};

/** Whether a holder of `held` may use a route needing `needed`. */
export function grants(held: readonly Scope[], needed: Scope): boolean {
  return held.includes('all') || held.includes(needed);
}

/** Who made a request: an API key, or a console member signed in with their wallet. The audit log names it. */
export type Actor = { kind: 'api_key'; id: string } | { kind: 'wallet'; address: string };
