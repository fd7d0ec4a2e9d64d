/**
 * The merchant's console team: its receiving wallets (always `owner`) and the wallets it invited with a role.
 * Reading needs `team:read`; adding and removing `team:write`, which only owners hold; the audit log records
 * each addition (or new role) and removal.
 */
import {
  ApiError,
  ErrorResponse,
  notFound,
  recordInvalid,
  TeamMemberList,
  TeamMemberRequest,
  TeamMemberResponse,
} from '@checkout/core';
import { listTeamMembers, putTeamMember, removeTeamMember, type TeamMember } from '@checkout/db';
import { isAddress } from 'viem';
import { z } from 'zod';
import type { AppState } from '../context.ts';
import { audited } from './audited.ts';
import { type Routes, withBody } from './declare.ts';
import { account, errors, json, ok } from './docs.ts';

const presentMember = (m: TeamMember) => ({
  address: m.address,
  role: m.role,
  added_by: m.addedBy,
  created_at: m.createdAt.toISOString(),
});

const memberPath = z.object({ address: z.string().meta({ description: 'The member’s wallet address' }) });
const forbidden = {
  '403': {
    description: 'The caller lacks the scope (named), or a cookie request lacks X-CSRF-Token',
    content: json(ErrorResponse),
  },
};

/** Who made the request, as `added_by` records it. */
function actorName(state: AppState): string {
  const actor = state.merchant!.actor;
  return actor.kind === 'wallet' ? actor.address : `api_key:${actor.id}`;
}

/** Registers the team routes on the account router (API key or console session, no wallet header). */
export function teamRoutes(router: Routes): void {
  router.get(
    '/team_members',
    account('team:read', {
      summary: 'The console team: receiving wallets (owners) first, then invited wallets',
      responses: { ...ok('The team', TeamMemberList), ...errors(401), ...forbidden },
    }),
    async (ctx) => {
      const members = await listTeamMembers(ctx.state.db, ctx.state.merchant!.merchantId);
      ctx.body = { team_members: members.map(presentMember) };
    },
  );

  router.post(
    '/team_members',
    account('team:write', {
      summary: 'Invite a wallet to the console with a role, or give a member a new role (owners only)',
      responses: { ...ok('The member', TeamMemberResponse), ...errors(400, 401, 422), ...forbidden },
    }),
    withBody({ schema: TeamMemberRequest }, async (ctx, body) => {
      const input = body();
      const member = await audited(
        ctx,
        async (db) => {
          const put = await putTeamMember(db, {
            merchantId: ctx.state.merchant!.merchantId,
            address: input.address,
            role: input.role,
            addedBy: actorName(ctx.state),
          });
          if (put === 'receiving_wallet') {
            throw recordInvalid([{ path: 'address', message: 'is a receiving wallet: always the owner' }]);
          }
          return put;
        },
        (m) => ({ action: 'member.added', subject: m.address, detail: { role: m.role } }),
      );
      ctx.body = { team_member: presentMember(member) };
    }),
  );

  router.delete(
    '/team_members/:address',
    account('team:write', {
      summary: 'Remove an invited wallet from the console; its open sessions end at once (owners only)',
      requestParams: { path: memberPath },
      responses: {
        ...ok('The removed member', TeamMemberResponse),
        ...errors(401, 404, 409),
        ...forbidden,
      },
    }),
    async (ctx) => {
      const address = ctx.params.address ?? '';
      if (!isAddress(address, { strict: false })) throw notFound('Team member');
      const removed = await audited(
        ctx,
        async (db) => {
          const gone = await removeTeamMember(db, ctx.state.merchant!.merchantId, address);
          if (!gone) throw notFound('Team member');
          if (gone === 'receiving_wallet') {
            throw new ApiError('conflict', 'A receiving wallet is always the owner and cannot be removed', {
              errors: [{ path: 'address', message: 'is a receiving wallet' }],
            });
          }
          return gone;
        },
        (m) => ({ action: 'member.removed', subject: m.address, detail: { role: m.role } }),
      );
      ctx.body = { team_member: presentMember(removed) };
    },
  );
}
