/** Area B users (spec 2.4, 4.5): create, show, list, and opening a KYC session. */
import { randomUUID } from 'node:crypto';
import { checkCountryCode, checkPhone, checkUsState } from '@checkout/banking';
import {
  ApiError,
  type FieldError,
  KycSessionResponse,
  UserCreateBody,
  UserListResponse,
  UserResponse,
} from '@checkout/core';
import { insertKycSession, listUsers, presentUser } from '@checkout/db';
import { createUser } from '@checkout/workflows';
import type { AppDeps } from '../context.ts';
import type { KycProvider } from '../kycProvider.ts';
import { type Routes, withBody } from './declare.ts';
import { areaB, errors, ok, userPath } from './docs.ts';
import { userOfRequest } from './loaders.ts';

/** Format rules the zod schema cannot express without the banking checks: ISO codes, US state, phone, blocked countries. */
function userFormatErrors(raw: Record<string, unknown>, blockedCountries: readonly string[]): FieldError[] {
  const errors: FieldError[] = [];
  const str = (key: string) => (typeof raw[key] === 'string' ? (raw[key] as string).trim() : undefined);
  const add = (field: string, message: string | undefined) => {
    if (message) errors.push({ path: `user.${field}`, message });
  };
  const country = str('country');
  if (country !== undefined) {
    const problem = checkCountryCode(country);
    add('country', problem);
    if (!problem && blockedCountries.includes(country)) {
      add('country', `is not supported: users in ${country} cannot be onboarded`);
    }
  }
  const nationality = str('nationality');
  if (nationality !== undefined) add('nationality', checkCountryCode(nationality));
  const state = str('state');
  if (country === 'US' && state) add('state', checkUsState(state));
  const phone = str('phone');
  if (phone) add('phone', checkPhone(phone));
  return errors;
}

/** Registers the user routes on the Area B router (API key only). */
export function userRoutes(router: Routes, deps: AppDeps, kycProvider: KycProvider | undefined): void {
  router.post(
    '/users',
    areaB('users:write', {
      summary: 'Create a user (starts its KYC workflow)',
      responses: { ...ok('The new user', UserResponse), ...errors(400, 401, 409, 422) },
    }),
    withBody(
      {
        schema: UserCreateBody,
        root: 'user',
        rules: (raw) => userFormatErrors(raw, deps.config.areaB.blockedCountries),
      },
      async (ctx, body) => {
        const row = await createUser(
          ctx.state.db,
          { secrets: deps.secrets },
          { merchantId: ctx.state.merchant!.merchantId, user: body().user },
        );
        ctx.body = { user: presentUser(row, deps.secrets) };
      },
    ),
  );

  router.get(
    '/users',
    areaB('users:read', {
      summary: "List the account's users",
      responses: { ...ok('Users', UserListResponse), ...errors(401) },
    }),
    async (ctx) => {
      const rows = await listUsers(ctx.state.db, ctx.state.merchant!.merchantId);
      ctx.body = { users: rows.map((row) => presentUser(row, deps.secrets)) };
    },
  );

  router.get(
    '/users/:id',
    areaB('users:read', {
      summary: 'Show a user',
      requestParams: { path: userPath },
      responses: { ...ok('The user', UserResponse), ...errors(401, 404) },
    }),
    async (ctx) => {
      const user = await userOfRequest(ctx);
      ctx.body = { user: presentUser(user, deps.secrets) };
    },
  );

  router.post(
    '/users/:id/kycs',
    areaB('users:write', {
      summary: 'Open a KYC session; the user verifies at the returned URL',
      requestParams: { path: userPath },
      responses: { ...ok('The session URL', KycSessionResponse), ...errors(401, 404) },
    }),
    async (ctx) => {
      const user = await userOfRequest(ctx);
      if (!kycProvider) {
        throw new ApiError(
          'service_unavailable',
          'KYC sessions are unavailable: no KYC provider is configured',
        );
      }
      const session = await kycProvider.createSession({ id: user.id, email: user.email });
      await insertKycSession(ctx.state.db, {
        id: randomUUID(),
        user_id: user.id,
        merchant_id: user.merchant_id,
        token: session.token,
        provider: kycProvider.name,
      });
      ctx.body = { kyc: { user_id: user.id, url: session.url } };
    },
  );
}
