/**
 * `onrampLifecycle` on the dev server and a local chain: the worker dies after the treasury transfer was
 * broadcast and before the send was recorded as done; another worker takes over and the tokens arrive
 * exactly once. A deposit's excess is returned through the bank partner under one key when the return is
 * retried, and a deposit after the end starts the onramp again and goes back in full.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createChainClients, devDeployer, erc20Abi } from '@checkout/chain';
import {
  createApiKey,
  createSecretBox,
  type Db,
  findOnrampById,
  insertOnramp,
  insertUser,
  openDatabase,
} from '@checkout/db';
import { Worker } from '@temporalio/worker';
import type { Address } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { getTransactionCount } from 'viem/actions';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type {} from '../../../test/setup/temporal.ts';
import { startTestChain, type TestChain } from '../../../test/support/chain.ts';
import { connectTestTemporal, type TestTemporal } from '../../../test/support/temporal.ts';
import { createOnrampActivities } from './activities.ts';
import { type BankPartner, createSandboxBankPartner } from './bankPartner.ts';
import { type OnrampActivities, onrampDepositSignal, onrampWorkflowId } from './shared.ts';
import { onrampLifecycle } from './workflow.ts';

const secrets = createSecretBox(randomBytes(32));
const randomAddress = () => privateKeyToAddress(`0x${randomBytes(32).toString('hex')}`);

let db: Db;
let chain: TestChain;
let temporal: TestTemporal;

beforeAll(async () => {
  [db, chain, temporal] = await Promise.all([
    openDatabase({ kind: 'pglite-memory' }),
    startTestChain(),
    connectTestTemporal(),
  ]);
});

afterAll(async () => {
  await temporal?.teardown();
  await chain?.stop();
  await db?.close();
});

function activities(bankPartner?: BankPartner): OnrampActivities {
  return createOnrampActivities({
    db,
    secrets,
    chains: createChainClients([
      { chainId: 97, name: 'dev chain', rpcUrls: [chain.chain.rpcUrl], confirmations: 1 },
    ]),
    ramps: { treasuryPrivateKey: devDeployer.privateKey },
    ...(bankPartner ? { bankPartner } : {}),
  });
}

function worker(taskQueue: string, served: object) {
  return Worker.create({
    connection: temporal.nativeConnection,
    taskQueue,
    activities: served,
    workflowBundle: { codePath: inject('workflowBundlePath') },
    shutdownGraceTime: '100 ms',
    // Then the worker is dropped without cleaning up: the hung activity is never reported.
    shutdownForceTime: '500 ms',
  });
}

async function newOnramp(destination: Address, amount: string, fee: string) {
  const merchantId = (await createApiKey(db.kysely, { address: randomAddress() })).merchantId;
  const user = await insertUser(db.kysely, {
    id: randomUUID(),
    merchant_id: merchantId,
    beneficiary_type: 'individual',
    first_name: 'Ada',
    last_name: 'Lovelace',
    company_name: null,
    email: 'ada@example.com',
    date_of_birth: '1985-12-10',
    address_line1: '1 Market Street',
    address_line2: null,
    city: 'San Francisco',
    state: 'CA',
    postcode: '94105',
    country: 'US',
    nationality: 'GB',
    phone: '+14155552671',
    ssn_ciphertext: secrets.seal('123-45-6789'),
    website: null,
    source_of_funds: null,
    business_activity: null,
    business_description: null,
    kyc: {
      general: { status: 'approved', moderation_comment: null },
      eur: { status: 'approved', swift_status: 'not_started' },
      usd: { status: 'approved', swift_status: 'not_started' },
      ars: { status: 'approved', swift_status: 'not_started' },
    },
  });
  const usdc = chain.deployment.tokens.USDC;
  const deposit = (Number(amount) + Number(fee)).toFixed(2);
  return insertOnramp(db.kysely, {
    id: randomUUID(),
    user_id: user.id,
    merchant_id: merchantId,
    status: 'initiated',
    status_message: null,
    crypto_currency: 'usdc',
    crypto_rails: 'binance-smart-chain',
    chain_id: 97,
    token_address: usdc.address,
    token_decimals: usdc.decimals,
    token_no_return: false,
    destination_amount: amount,
    fee,
    deposit_amount: deposit,
    received_amount: '0.00',
    destination_address: destination,
    fiat_currency: 'usd',
    fiat_rails: 'ach_push',
    deposit_message: `BV${randomBytes(6).toString('hex').toUpperCase()}`,
    expires_at: new Date(Date.now() + 3_600_000),
  });
}

const balanceOf = (address: Address) =>
  chain.publicClient.readContract({
    address: chain.deployment.tokens.USDC.address,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [address],
  });

describe('onrampLifecycle when the worker dies mid-send', () => {
  it('sends the crypto exactly once when the worker is killed between the send and its record', async () => {
    const destination = randomAddress();
    const onramp = await newOnramp(destination, '12.34', '1.00');
    const taskQueue = `onramp-kill-${randomUUID()}`;
    const treasuryNonce = () =>
      getTransactionCount(chain.publicClient, { address: devDeployer.address, blockTag: 'latest' });
    const nonceBefore = await treasuryNonce();

    // Worker A sends the tokens for real, then dies before the activity's completion reaches Temporal.
    let broadcast!: () => void;
    const sent = new Promise<void>((resolve) => {
      broadcast = resolve;
    });
    const real = activities();
    const dying = await worker(taskQueue, {
      ...real,
      async sendOnrampCrypto(input: { onrampId: string }) {
        await real.sendOnrampCrypto(input);
        broadcast();
        await new Promise(() => {});
      },
    });
    const runA = dying.run().catch((error: unknown) => error);

    const handle = await temporal.client.workflow.start(onrampLifecycle, {
      workflowId: onrampWorkflowId(onramp.id),
      taskQueue,
      args: [
        {
          onrampId: onramp.id,
          merchantId: onramp.merchant_id,
          userId: onramp.user_id,
          expiresAt: onramp.expires_at.toISOString(),
        },
      ],
    });
    await handle.signal(onrampDepositSignal, { depositId: randomUUID(), amount: '13.34' });
    await sent;

    // The transfer is on chain; the database still says sending_crypto, with the transfer recorded.
    const mid = await findOnrampById(db.kysely, onramp.id);
    expect(mid).toMatchObject({ status: 'sending_crypto' });
    expect(mid?.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    await chain.publicClient.waitForTransactionReceipt({
      hash: mid!.tx_hash as `0x${string}`,
      timeout: 30_000,
    });
    expect(await balanceOf(destination)).toBe(12_340_000n);

    dying.shutdown();
    // Forced down with the activity still hanging: the worker is gone, nothing was reported for it.
    expect(await runA).toBeInstanceOf(Error);
    expect(['STOPPED', 'FAILED']).toContain(dying.getState());

    // Worker B picks the retried send up once the dead attempt times out, and finishes the onramp.
    const survivor = await worker(taskQueue, activities());
    const result = await survivor.runUntil(handle.result());
    expect(result).toEqual({ onrampId: onramp.id, status: 'crypto_sent' });

    const done = await findOnrampById(db.kysely, onramp.id);
    expect(done).toMatchObject({ status: 'crypto_sent', tx_hash: mid?.tx_hash });
    expect(await balanceOf(destination)).toBe(12_340_000n);
    // One transaction left the treasury: the retry rebroadcast the recorded one instead of signing anew.
    expect(await treasuryNonce()).toBe(nonceBefore + 1);
  }, 120_000);
});

describe('onrampLifecycle returning unused fiat', () => {
  it('returns an excess once by its key when the return is retried, and a deposit after the end', async () => {
    const destination = randomAddress();
    const onramp = await newOnramp(destination, '12.34', '1.00');
    const taskQueue = `onramp-refund-${randomUUID()}`;
    // The partner sees every request; a real one returns the money once per key.
    const asked: Parameters<BankPartner['returnFunds']>[0][] = [];
    const sandbox = createSandboxBankPartner();
    const partner: BankPartner = {
      async returnFunds(request) {
        asked.push(request);
        return sandbox.returnFunds(request);
      },
    };
    const real = activities(partner);
    let attempts = 0;
    const served = {
      ...real,
      // The first attempt reaches the partner, then is lost before it reports back.
      async returnOnrampRefunds(input: { onrampId: string }) {
        attempts += 1;
        if (attempts === 1) {
          const row = await findOnrampById(db.kysely, input.onrampId);
          const pending = row!.refunds.find((r) => r.status === 'pending')!;
          await partner.returnFunds({
            key: pending.id,
            onrampId: input.onrampId,
            depositId: pending.deposit_id,
            amount: pending.amount,
            currency: row!.fiat_currency,
            reference: row!.deposit_message,
          });
          throw new Error('the worker lost the attempt after the partner took the return');
        }
        return real.returnOnrampRefunds(input);
      },
    };
    const input = {
      onrampId: onramp.id,
      merchantId: onramp.merchant_id,
      userId: onramp.user_id,
      expiresAt: onramp.expires_at.toISOString(),
    };
    const w = await worker(taskQueue, served);
    const excessId = randomUUID();
    const first = await w.runUntil(async () => {
      const handle = await temporal.client.workflow.start(onrampLifecycle, {
        workflowId: onrampWorkflowId(onramp.id),
        taskQueue,
        args: [input],
      });
      await handle.signal(onrampDepositSignal, { depositId: excessId, amount: '20.00' });
      // The same notice again (as the hand-over's sweep may repeat it): credited once.
      await handle.signal(onrampDepositSignal, { depositId: excessId, amount: '20.00' });
      return handle.result();
    });
    expect(first).toEqual({ onrampId: onramp.id, status: 'crypto_sent' });
    expect(await balanceOf(destination)).toBe(12_340_000n);
    const funded = await findOnrampById(db.kysely, onramp.id);
    expect(funded).toMatchObject({ received_amount: '20.00' });
    expect(funded?.refunds).toEqual([
      {
        id: `excess:${excessId}`,
        reason: 'excess',
        deposit_id: excessId,
        amount: '6.66',
        status: 'sent',
        reference: expect.stringMatching(/^RT[0-9A-F]{12}$/),
        message: null,
      },
    ]);
    // The lost attempt, its retry, and a last look after the repeated notice (nothing left to return);
    // the partner was asked twice, both times under the one key.
    expect(attempts).toBe(3);
    expect(asked.map((r) => [r.key, r.amount])).toEqual([
      [`excess:${excessId}`, '6.66'],
      [`excess:${excessId}`, '6.66'],
    ]);

    // A deposit after the onramp ended starts it again, and goes back in full.
    const lateId = randomUUID();
    const again = await worker(taskQueue, served);
    const second = await again.runUntil(async () => {
      const handle = await temporal.client.workflow.signalWithStart(onrampLifecycle, {
        workflowId: onrampWorkflowId(onramp.id),
        taskQueue,
        args: [input],
        signal: onrampDepositSignal,
        signalArgs: [{ depositId: lateId, amount: '3.00' }],
      });
      return handle.result();
    });
    expect(second).toEqual({ onrampId: onramp.id, status: 'crypto_sent' });
    const done = await findOnrampById(db.kysely, onramp.id);
    expect(done?.refunds.map((r) => [r.reason, r.deposit_id, r.amount, r.status])).toEqual([
      ['excess', excessId, '6.66', 'sent'],
      ['late_deposit', lateId, '3.00', 'sent'],
    ]);
    expect(done).toMatchObject({ status: 'crypto_sent', received_amount: '20.00' });
    expect(asked.map((r) => r.key)).toEqual([
      `excess:${excessId}`,
      `excess:${excessId}`,
      `late_deposit:${lateId}`,
    ]);
    expect(await balanceOf(destination)).toBe(12_340_000n);
  }, 120_000);
});
