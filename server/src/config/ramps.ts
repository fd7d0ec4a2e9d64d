/** Area B: sandbox routes, refused countries, and the onramps', quotes' and offramps' keys, fees and bank. */
import { devAccounts, devDepositMnemonic } from '@checkout/chain';
import { type FeeRule, parseFeeTable, parseRateTable } from '@checkout/core';
import { z } from 'zod';
import { ConfigError, optional, table } from './shared.ts';

/** Onramp fees per fiat rail: `currency:rail:bps:fixed:minimum` (research §9: 1000 → 4, 2500 wire → 10). */
const defaultOnrampFees = 'usd:ach_push:40:0:1,usd:wire:40:0:10,eur:sepa:40:0:1';
/** Offramp fees per payout rail (research §7, §14: 4 EUR on 1000 local, wire +20 USD). */
const defaultOfframpFees =
  'eur:local:40:0:1,eur:swift:50:25:25,usd:local:40:0:1,usd:wire:40:20:20,usd:swift:50:25:25,' +
  'gbp:local:40:0:1,gbp:swift:50:25:25,ars:local:100:0:1,mxn:local:100:0:10';

/** Where users wire onramp deposits (sandbox values unless ONRAMP_BANK_ACCOUNT is set). */
const DepositBankSchema = z
  .object({
    bank_account_number: z.string().min(1),
    bank_name: z.string().min(1),
    bank_address: z.string().min(1),
    bank_beneficiary_name: z.string().min(1),
    bank_routing_number: z.string().min(1),
  })
  .strict();
type DepositBankAccount = z.infer<typeof DepositBankSchema>;

const sandboxBank: DepositBankAccount = {
  bank_account_number: '000123456789',
  bank_name: 'Sandbox Bank',
  bank_address: '1 Sandbox Way, New York, NY 10001, US',
  bank_beneficiary_name: 'Stable Checkout Sandbox',
  bank_routing_number: '021000021',
};

export const rampsEnv = {
  SANDBOX_ENABLED: optional(z.enum(['true', 'false'])),
  SANDBOX_PAYER_PRIVATE_KEY: optional(
    z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be 0x and 64 hex characters'),
  ),
  BLOCKED_COUNTRIES: z
    .string()
    .regex(/^\s*([A-Za-z]{2}\s*(,\s*[A-Za-z]{2}\s*)*)?$/, 'must be comma-separated two-letter country codes')
    .default('CU,IR,KP,SY,RU,BY'),
  KYC_SESSION_TIMEOUT_MINUTES: z.coerce.number().positive().max(525_600).default(1440),
  DEPOSIT_MNEMONIC: optional(z.string().min(20)),
  TREASURY_PRIVATE_KEY: optional(z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be 0x and 64 hex characters')),
  ONRAMP_EXPIRY_MINUTES: z.coerce.number().positive().max(525_600).default(4320),
  QUOTE_EXPIRY_MINUTES: z.coerce.number().positive().max(525_600).default(60),
  ONRAMP_FEES: z.string().default(defaultOnrampFees),
  OFFRAMP_FEES: z.string().default(defaultOfframpFees),
  FX_RATES: z.string().default('usd:1,eur:0.92,gbp:0.79,ars:1000,mxn:17.5'),
  ONRAMP_BANK_ACCOUNT: optional(z.string()),
  PAYOUT_SANDBOX_DELAY_MS: z.coerce.number().int().min(0).max(3_600_000).default(2000),
  RAMP_RECONCILE_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
};
type RampsEnv = z.infer<z.ZodObject<typeof rampsEnv>> & { NODE_ENV: string };

/** Sandbox routes and the sandbox KYC provider; countries whose users are refused; KYC sessions' life. */
export interface AreaBConfig {
  sandboxEnabled: boolean;
  /** The wallet the sandbox pays test checkouts from on a public test network (a dev chain's needs none). */
  sandboxPayerKey: `0x${string}` | undefined;
  blockedCountries: string[];
  /** How long a provider session may stay unfinished before the user's case expires into `retry_required`. */
  kycSessionTimeoutMinutes: number;
}

/** Onramps, quotes and offramps: keys, expiries, the fee and FX tables, the deposit bank account. */
export interface RampsConfig {
  depositMnemonic: string;
  treasuryPrivateKey: `0x${string}`;
  onrampExpiryMinutes: number;
  quoteExpiryMinutes: number;
  onrampFees: FeeRule[];
  offrampFees: FeeRule[];
  /** Fiat units per one USD stablecoin, exact decimal strings. */
  fxRates: Record<string, string>;
  depositBank: DepositBankAccount;
  payoutSandboxDelayMs: number;
  /**
   * How often the hand-over is swept (`RAMP_RECONCILE_INTERVAL_MS`, named for where it began): every queued
   * workflow call Temporal did not take, of every family, and every shopper's hash no checkout took.
   */
  reconcileIntervalMs: number;
}

export function rampsConfig(c: RampsEnv): { areaB: AreaBConfig; ramps: RampsConfig } {
  for (const name of ['DEPOSIT_MNEMONIC', 'TREASURY_PRIVATE_KEY'] as const) {
    if (c.NODE_ENV === 'production' && !c[name]) throw new ConfigError(`${name}: is required in production`);
  }
  return {
    areaB: {
      sandboxEnabled: (c.SANDBOX_ENABLED ?? String(c.NODE_ENV !== 'production')) === 'true',
      sandboxPayerKey: c.SANDBOX_PAYER_PRIVATE_KEY as `0x${string}` | undefined,
      blockedCountries: c.BLOCKED_COUNTRIES.split(',')
        .map((code) => code.trim().toUpperCase())
        .filter((code) => code !== ''),
      kycSessionTimeoutMinutes: c.KYC_SESSION_TIMEOUT_MINUTES,
    },
    ramps: {
      depositMnemonic: c.DEPOSIT_MNEMONIC ?? devDepositMnemonic,
      treasuryPrivateKey: (c.TREASURY_PRIVATE_KEY ?? devAccounts[0]!.privateKey) as `0x${string}`,
      onrampExpiryMinutes: c.ONRAMP_EXPIRY_MINUTES,
      quoteExpiryMinutes: c.QUOTE_EXPIRY_MINUTES,
      onrampFees: table('ONRAMP_FEES', () => parseFeeTable(c.ONRAMP_FEES)),
      offrampFees: table('OFFRAMP_FEES', () => parseFeeTable(c.OFFRAMP_FEES)),
      fxRates: table('FX_RATES', () => Object.fromEntries(parseRateTable(c.FX_RATES))),
      depositBank: c.ONRAMP_BANK_ACCOUNT
        ? table('ONRAMP_BANK_ACCOUNT', () =>
            DepositBankSchema.parse(JSON.parse(c.ONRAMP_BANK_ACCOUNT as string)),
          )
        : sandboxBank,
      payoutSandboxDelayMs: c.PAYOUT_SANDBOX_DELAY_MS,
      reconcileIntervalMs: c.RAMP_RECONCILE_INTERVAL_MS,
    },
  };
}
