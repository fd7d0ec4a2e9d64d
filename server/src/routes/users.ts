/** Area B users (spec 2.4, 4.5): create, show, list, and opening a KYC session. */
import { randomUUID } from 'node:crypto';
import { checkCountryCode, checkPhone, checkUsState } from '@checkout/banking';
import {
  ApiError,
  type FieldError,
  initialKyc,
  KycSessionResponse,
  notFound,
  UserCreateBody,
  UserListResponse,
  UserResponse,
  Uuid,
} from '@checkout/core';
import { findUser, insertKycSession, insertUser, listUsers, presentUser, type UserRow } from '@checkout/db';
import { kycWorkflowSummary, startKycOnboarding } from '@checkout/workflows';
import type { ParameterizedContext } from 'koa';
import type { AppDeps, AppState } from '../context.ts';
import type { KycProvider } from '../kycProvider.ts';
import { type Routes, withBody } from './declare.ts';
import { areaB, errors, idPath, ok } from './docs.ts';

/** The account's user named by the `:id` path parameter, or a 404 (malformed id, absent, another account's). */
export async function userOfRequest(
  ctx: ParameterizedContext<AppState>,
  id: string | undefined,
): Promise<UserRow> {
  if (!id || !Uuid.safeParse(id).success) throw notFound('User');
  const user = await findUser(ctx.state.db, ctx.state.merchant!.merchantId, id);
  if (!user) throw notFound('User');
  return user;
}

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
    areaB({
      summary: 'Create a user (starts its KYC workflow)',
      responses: { ...ok('The new user', UserResponse), ...errors(400, 401, 409, 415, 422) },
    }),
    withBody(
      {
        schema: UserCreateBody,
        root: 'user',
        rules: (raw) => userFormatErrors(raw, deps.config.areaB.blockedCountries),
      },
      async (ctx, body) => {
        const { user: input } = body();
        const merchantId = ctx.state.merchant!.merchantId;
        const row = await insertUser(ctx.state.db, {
          id: randomUUID(),
          merchant_id: merchantId,
          beneficiary_type: input.beneficiary_type,
          first_name: input.first_name || null,
          last_name: input.last_name || null,
          company_name: input.company_name || null,
          email: input.email,
          date_of_birth: input.date_of_birth,
          address_line1: input.address_line1,
          address_line2: input.address_line2 || null,
          city: input.city,
          state: input.state,
          postcode: input.postcode,
          country: input.country,
          nationality: input.nationality,
          phone: input.phone,
          ssn_ciphertext: deps.secrets.seal(input.ssn),
          website: input.website || null,
          source_of_funds: input.source_of_funds || null,
          business_activity: input.business_activity || null,
          business_description: input.business_description || null,
          kyc: initialKyc(),
        });
        if (deps.temporal) {
          try {
            await startKycOnboarding(
              deps.temporal.client,
              deps.config.temporal.taskQueue,
              { userId: row.id, merchantId },
              kycWorkflowSummary(row),
            );
          } catch (error) {
            // The first KYC signal starts the workflow anyway (signal-with-start); the user stays created.
            ctx.state.log.warn({ err: error, userId: row.id }, 'could not start the KYC workflow');
          }
        }
        ctx.body = { user: presentUser(row, deps.secrets) };
      },
    ),
  );

  router.get(
    '/users',
    areaB({
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
    areaB({
      summary: 'Show a user',
      requestParams: { path: idPath },
      responses: { ...ok('The user', UserResponse), ...errors(401, 404) },
    }),
    async (ctx) => {
      const user = await userOfRequest(ctx, ctx.params.id);
      ctx.body = { user: presentUser(user, deps.secrets) };
    },
  );

  router.post(
    '/users/:id/kycs',
    areaB({
      summary: 'Open a KYC session; the user verifies at the returned URL',
      requestParams: { path: idPath },
      responses: { ...ok('The session URL', KycSessionResponse), ...errors(401, 404) },
    }),
    async (ctx) => {
      const user = await userOfRequest(ctx, ctx.params.id);
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
