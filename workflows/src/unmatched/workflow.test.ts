/**
 * `unmatchedTransfer` on the time-skipping server, with the real unmatched-transfer activities over PGlite:
 * a transfer nobody settles is followed for its 30 days and no longer, its workflow then ends saying so; a
 * change after that starts it again (as the signal-with-start each change queues does), and it ends once the
 * transfer's fate is sealed. Its history replays on a fresh worker (a restarted worker resumes it as it was).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createTokenRegistry } from '@checkout/core';
import {
  createApiKey,
  createSecretBox,
  type Db,
  insertUnmatchedTransfer,
  openDatabase,
  settleUnmatchedTransfer,
} from '@checkout/db';
import { Worker } from '@temporalio/worker';
import { privateKeyToAddress } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type {} from '../../../test/setup/temporal.ts';
import { createTimeSkippingEnv, shownStatus, startTestWorker } from '../../../test/support/temporal.ts';
import { createUnmatchedActivities } from './activities.ts';
import { unmatchedTransferChangedSignal, unmatchedWorkflowId } from './shared.ts';
import { unmatchedTransfer } from './workflow.ts';

const day = 86_400_000;
const secrets = createSecretBox(randomBytes(32));
const randomAddress = () => privateKeyToAddress(`0x${randomBytes(32).toString('hex')}`);
const busd = randomAddress();
const tokens = createTokenRegistry({ chainId: 97, testTokenAddress: busd });

let db: Db;
beforeAll(async () => {
  db = await openDatabase({ kind: 'pglite-memory' });
});
afterAll(async () => {
  await db?.close();
});

/** An open unmatched transfer of 7 BUSD of a merchant with no product (nobody to e-mail). */
async function openTransfer(now: number) {
  const wallet = await createApiKey(db.kysely, { address: randomAddress() });
  const sender = randomAddress().toLowerCase();
  const row = await insertUnmatchedTransfer(db.kysely, {
    id: randomUUID(),
    merchantId: wallet.merchantId,
    productId: null,
    transfer: {
      chain_id: 97,
      tx_hash: `0x${randomBytes(32).toString('hex')}`,
      log_index: 0,
      block_number: '100',
      block_hash: `0x${randomBytes(32).toString('hex')}`,
      token_address: busd.toLowerCase(),
      from_address: sender,
      tx_from: sender,
      to_address: wallet.address.toLowerCase(),
      amount: (7n * 10n ** 18n).toString(),
      tx_input: '',
      seen_at: new Date(now),
      handed_over: true,
    },
    token: {
      symbol: 'BUSD',
      address: busd,
      name: 'BUSD Token',
      decimal_count: 18,
      blockchain: 'binance-smart-chain',
      network: 'testnet',
    },
    kind: 'wrong_amount',
    resolvedPaymentId: null,
    nearSessionIds: [],
    mailWanted: true,
  });
  if (!row) throw new Error('the transfer was not recorded');
  return {
    row,
    title: `Unmatched transfer 7 BUSD · wrong amount · from ${sender.slice(0, 6)}…${sender.slice(-4)}`,
  };
}

describe('unmatchedTransfer on the time-skipping server', () => {
  it('follows an unsettled transfer for 30 days, ends saying so, and is followed again by a later change until it is sealed', async () => {
    const env = await createTimeSkippingEnv();
    try {
      const activities = createUnmatchedActivities({ db, secrets, tokens, mailer: undefined, checkout: {} });
      const w = await startTestWorker({ connection: env.nativeConnection, activities });
      const { row, title } = await openTransfer(await env.currentTimeMs());
      const workflowId = unmatchedWorkflowId(row.id);
      const options = {
        workflowId,
        taskQueue: w.taskQueue,
        args: [{ unmatchedTransferId: row.id }] as const,
      };
      const history = await w.run(async () => {
        const handle = await env.client.workflow.start(unmatchedTransfer, {
          ...options,
          args: [...options.args],
        });
        await expect
          .poll(async () => (await shownStatus(handle)).summary, { timeout: 10_000 })
          .toBe(`${title} · open`);
        // 30 days pass with nothing done: the workflow ends, open and no longer followed.
        await env.sleep(30 * day);
        expect(await handle.result()).toEqual({ sent: 0, status: 'open' });
        const ended = await shownStatus(handle);
        expect(ended.summary).toBe(`${title} · open, no longer followed`);
        expect(ended.details).toMatch(/\n- no longer followed since \S+Z: a change to it follows it again$/);

        // Dismissed later: the change's signal starts it again, and it ends at once, sealed.
        await settleUnmatchedTransfer(db.kysely, row.id, { status: 'dismissed', note: 'kept' });
        const again = await env.client.workflow.signalWithStart(unmatchedTransfer, {
          ...options,
          args: [...options.args],
          signal: unmatchedTransferChangedSignal,
          signalArgs: [],
        });
        expect(await again.result()).toEqual({ sent: 0, status: 'dismissed' });
        expect((await shownStatus(again)).summary).toBe(`${title} · dismissed`);
        return handle.fetchHistory();
      });
      // The first run's history replays on a fresh worker: its code is deterministic.
      await Worker.runReplayHistory(
        { workflowBundle: { codePath: inject('workflowBundlePath') } },
        history,
        workflowId,
      );
    } finally {
      await env.teardown();
    }
  });
});
