/**
 * `npm run chaos`: the money path and every effect around it while worker processes are killed.
 *
 * One run on PostgreSQL: the Temporal dev server, the dev chain, an SMTP inbox and an HTTP receiver in
 * this process; one API process (no worker) and two worker processes of the real service. While
 * payments (some of them closed tabs: the hash is never submitted) and onramps go through, a worker
 * process, sometimes both, is SIGKILLed and restarted, again and again. Then everything is counted:
 *
 * - payments: resolved exactly once, with the transfer that paid them (lost, duplicated, wrong transfer);
 * - e-mails: one customer receipt and one merchant notice per payment (missing, duplicated; the one resend of
 *   an e-mail whose sender was killed mid-send, with the same Message-ID, is reported apart: takeOvers.ts);
 * - payment webhooks: at least one request per payment, one delivery per payment (lost, duplicated
 *   deliveries; exact retries of one delivery are reported, not counted as faults);
 * - onramps: delivered once on chain (lost, doubled) and every `onramp_update` version received;
 * - second payments (every n-th paid order is paid again from the same wallet, as from a second tab): each
 *   recorded as one unmatched transfer, with one merchant e-mail and one webhook delivery (lost, doubled),
 *   and no other transfer recorded as unmatched;
 * - refunds (every n-th payment, once resolved, is partly refunded through the API with an `Idempotency-Key`
 *   sent twice; every m-th of them without an address, claimed by the customer on the claim route after the
 *   claim e-mail; each paid from the merchant's receiving wallet, whose key the run holds, exactly as its
 *   `payment_request.transaction` says, after the merchant's ready-to-pay e-mail): each one refund, confirmed
 *   (lost, doubled), its `refund.updated` once per status it passed through, its e-mails once each, its payment
 *   `partially_refunded`, and its transfer neither unmatched nor a checkout's payment (countRefunds.ts);
 * - phone payments (every n-th payment pays its session's deposit address a rounded, a net-of-fee or the exact
 *   amount): counted as payments like the others, and each address swept to the merchant once (deposits.ts).
 *
 * Exits 1 when any fault count is not 0. Writes the figures to `.bench/chaos-<timestamp>.json`.
 *
 * `npm run chaos -- --rpc-faults` runs payments through RPC providers that misbehave instead (rpcFaults.ts).
 *
 * Environment: CHAOS_PAYMENTS (50), CHAOS_CLOSED_TAB_EVERY (4: every 4th payment never submits its
 * hash), CHAOS_STRAY_EVERY (5: every 5th payment that submits its hash is paid twice), CHAOS_REFUND_EVERY (4:
 * every 4th payment is refunded, 0 for none), CHAOS_REFUND_CLAIM_EVERY (2: every 2nd refund is claimed by the
 * customer), CHAOS_DEPOSIT_EVERY (3: every 3rd payment is a phone payment to a deposit address, 0 for
 * none), CHAOS_ONRAMPS (10), CHAOS_MIN_KILLS (20), CHAOS_DURATION_SECONDS (90: how long the payments are
 * spread over), CHAOS_SETTLE_SECONDS (240), CHAOS_POSTGRES_ADMIN_URL (postgres://postgres@127.0.0.1:5432/postgres), CHAOS_DATABASE_URL
 * (a database of your own, kept after the run to look into; else a throw-away one on the admin URL).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bootstrapDevChain, erc20Abi, startDevChain } from '@checkout/chain';
import { startDevInbox } from '@checkout/mail';
import { bundleWorkflows, startTemporalDevServer } from '@checkout/workflows';
import { DefaultLogger } from '@temporalio/worker';
import pg from 'pg';
import { type Address, createPublicClient, type Hex, http, type PublicClient, parseUnits } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { connectShoppers } from '../bench/checkout/shoppers.ts';
import { killServiceProcesses, type ServiceProcess, startServiceProcess } from '../bench/checkout/target.ts';
import { preparePostgres } from '../bench/postgres.ts';
import { readInt } from '../bench/readInt.ts';
import { fetchTemporal } from '../fetchTemporal.ts';
import {
  type ChaosOnramp,
  type ChaosPayment,
  countEffects,
  type UnmatchedRow,
  unmatchedMessageIdOf,
} from './count.ts';
import { countRefunds, type RefundRow, refundMessageIdsOf, refundStatusesOf } from './countRefunds.ts';
import { type ChaosDeposit, countSweeps, payDeposit } from './deposits.ts';
import { startRecorder } from './recorder.ts';
import { type ChaosCall, type ChaosRefund, createRefunder } from './refunds.ts';
import { runRpcFaults } from './rpcFaults.ts';
import { setAsideTakeOvers, takenOverMessageIds } from './takeOvers.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const chainId = 97;

const settings = {
  payments: readInt('CHAOS_PAYMENTS', 50, 1, 10_000),
  closedTabEvery: readInt('CHAOS_CLOSED_TAB_EVERY', 4, 0, 1_000),
  strayEvery: readInt('CHAOS_STRAY_EVERY', 5, 0, 1_000),
  refundEvery: readInt('CHAOS_REFUND_EVERY', 4, 0, 1_000),
  refundClaimEvery: readInt('CHAOS_REFUND_CLAIM_EVERY', 2, 0, 1_000),
  depositEvery: readInt('CHAOS_DEPOSIT_EVERY', 3, 0, 1_000),
  onramps: readInt('CHAOS_ONRAMPS', 10, 0, 1_000),
  minKills: readInt('CHAOS_MIN_KILLS', 20, 0, 10_000),
  durationSeconds: readInt('CHAOS_DURATION_SECONDS', 90, 1, 3_600),
  settleSeconds: readInt('CHAOS_SETTLE_SECONDS', 240, 10, 3_600),
  adminUrl: process.env.CHAOS_POSTGRES_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
};

const cleanups: Array<() => Promise<unknown>> = [];
const progress = (message: string) => process.stderr.write(`chaos: ${message}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const between = (min: number, max: number) => min + Math.floor(Math.random() * (max - min));

async function main(): Promise<number> {
  const startedAt = new Date();
  const workDir = mkdtempSync(join(tmpdir(), 'checkout-chaos-'));
  cleanups.push(async () => rmSync(workDir, { recursive: true, force: true }));

  const postgres = await preparePostgres(process.env.CHAOS_DATABASE_URL || undefined, settings.adminUrl);
  if (!postgres.available) throw new Error(`PostgreSQL is needed: ${postgres.reason}`);
  cleanups.push(() => postgres.drop());

  progress('starting Temporal, the dev chain, the inbox and the receiver');
  const { cli } = fetchTemporal();
  const temporal = await startTemporalDevServer({ binary: cli, uiPort: false, logLevel: 'warn' });
  cleanups.push(() => temporal.stop());
  const chain = await startDevChain({ chainId });
  cleanups.push(() => chain.stop());
  const deployment = await bootstrapDevChain({ rpcUrl: chain.rpcUrl });
  const inbox = await startDevInbox({ dir: join(workDir, 'mail') });
  cleanups.push(() => inbox.close());
  const recorder = await startRecorder();
  cleanups.push(() => recorder.close());
  const shoppers = await connectShoppers(deployment, chain.rpcUrl, chainId);
  const publicClient = createPublicClient({ transport: http(chain.rpcUrl) });
  // The merchant's receiving wallet: the run holds its key (it pays the refunds) and gives it gas.
  const merchantKey = `0x${randomBytes(32).toString('hex')}` as Hex;
  await publicClient.request({
    method: 'hardhat_setBalance' as 'eth_chainId',
    params: [privateKeyToAddress(merchantKey), `0x${(10n ** 18n).toString(16)}`] as unknown as undefined,
  });
  const bundle = await bundleWorkflows(join(workDir, 'workflows.js'), new DefaultLogger('WARN'));

  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ['DEV_API_KEY', 'DEV_WALLET_ADDRESS', 'PUBLIC_BASE_URL', 'NODE_ENV']) delete env[key];
  Object.assign(env, {
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'warn',
    DATABASE_URL: postgres.url,
    SECRET_KEY: randomBytes(32).toString('hex'),
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_TASK_QUEUE: `chaos-${randomBytes(4).toString('hex')}`,
    RPC_URL_BINANCE_SMART_CHAIN_TESTNET: chain.rpcUrl,
    SMTP_URL: inbox.smtpUrl,
    BENCH_WORKFLOW_BUNDLE: bundle.codePath,
    BENCH_MAX_SECONDS: '3600',
    CHAIN_POLL_INTERVAL_MS: '200',
    CHECKOUT_SHORT_PAYMENT_WAIT_SECONDS: '5',
    CHECKOUT_SCAN_INTERVAL_MS: '500',
    PAYOUT_SANDBOX_DELAY_MS: '200',
    RAMP_RECONCILE_INTERVAL_MS: '2000',
    PHONE_PAYMENT_MODE_BINANCE_SMART_CHAIN_TESTNET: 'deposit_address',
    // Unmatched transfers close together share an e-mail, as in production, and the next batch goes soon.
    UNMATCHED_EMAIL_INTERVAL_SECONDS: '10',
  });
  const start = (label: string, extra: Record<string, string>) =>
    startServiceProcess({
      label,
      env: { ...env, DATA_DIR: join(workDir, label), ...extra },
      cwd: root,
      readyTimeoutMs: 180_000,
    });
  progress('starting the API process and two worker processes');
  const api = await start('api', {
    ROLE: 'api',
    RUN_WORKER: 'false',
    BENCH_MERCHANT_ADDRESS: privateKeyToAddress(merchantKey),
  });
  cleanups.push(() => api.stop());
  const workerEnv = { ROLE: 'worker', RUN_WORKER: 'true' };
  const workers: Array<ServiceProcess | undefined> = [
    await start('worker-1', workerEnv),
    await start('worker-2', workerEnv),
  ];
  cleanups.push(() => Promise.all(workers.map((w) => w?.stop() ?? Promise.resolve())));

  const { url, merchant } = api.ready;
  const call: ChaosCall = async (method, path, body, auth = 'wallet', extra = {}) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...extra };
    if (auth !== 'none') headers.authorization = `Bearer ${merchant.key}`;
    if (auth === 'wallet') headers['x-address'] = merchant.address;
    const res = await fetch(`${url}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return {
      status: res.status,
      body: text ? JSON.parse(text) : undefined,
      text,
      replayed: res.headers.get('idempotent-replayed') === 'true',
    };
  };
  const must = async (method: string, path: string, body?: unknown, auth?: 'wallet' | 'key' | 'none') => {
    for (let tries = 0; ; tries++) {
      const res = await call(method, path, body, auth);
      if (res.status < 300) return res.body;
      // The API waits out a worker outage with 202/503 on some calls; everything else is a failure.
      if (res.status !== 503 || tries >= 20) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
      await sleep(1_000);
    }
  };

  const busd = deployment.tokens.BUSD;
  const usdc = deployment.tokens.USDC;
  const product = (
    await must('POST', '/api/v1/products', {
      product: {
        name: 'Chaos coffee',
        email: 'merchant@example.com',
        active: true,
        send_webhook: true,
        webhook_url: recorder.url,
        send_email: true,
        email_body: 'Thanks!',
        custom_fields: [],
        token: { blockchain: 'binance-smart-chain', network: 'testnet', address: busd.address },
      },
    })
  ).product as { id: string; slug: string };
  await must('PUT', '/webhook_endpoint', { webhook_endpoint: { url: recorder.url } }, 'key');

  // The killer: a worker process (one in ten times both) is SIGKILLed every 2-6 s and restarted 1-3 s later.
  let kills = 0;
  let chaosOn = true;
  const killer = (async () => {
    while (chaosOn) {
      await sleep(between(2_000, 6_000));
      if (!chaosOn) break;
      const both = Math.random() < 0.1;
      const victims = both ? [0, 1] : [between(0, 2)];
      await Promise.all(
        victims.map(async (i) => {
          await workers[i]?.kill();
          workers[i] = undefined;
          kills += 1;
        }),
      );
      progress(`killed worker ${victims.map((i) => i + 1).join(' and ')} (${kills} kills)`);
      await sleep(between(1_000, 3_000));
      for (const i of victims) workers[i] = await start(`worker-${i + 1}`, workerEnv);
    }
  })();

  const db = new pg.Client({ connectionString: postgres.url });
  await db.connect();
  cleanups.push(() => db.end());
  const refunder = await createRefunder({
    call,
    db,
    inbox,
    merchantKey,
    rpcUrl: chain.rpcUrl,
    chainId,
    deadline: Date.now() + (settings.durationSeconds + settings.settleSeconds) * 1000,
    progress,
  });
  const refundFlows: Promise<ChaosRefund>[] = [];

  // Payments, spread over the run, one shopper account at a time; every n-th never submits its hash.
  const payments: ChaosPayment[] = [];
  const strays: string[] = [];
  const deposits: ChaosDeposit[] = [];
  const paymentErrors: string[] = [];
  const spacingMs = Math.floor((settings.durationSeconds * 1000) / Math.max(settings.payments, 1));
  const lanes = Array.from({ length: shoppers.count }, (_, lane) =>
    (async () => {
      for (let i = lane; i < settings.payments; i += shoppers.count) {
        await sleep(spacingMs * shoppers.count * (i === lane ? 0 : 1) + between(0, spacingMs));
        // Distinct amounts: a closed tab is matched by its exact amount among its payer's open checkouts.
        const dollars = `${1 + i}.${String(between(0, 100)).padStart(2, '0')}`;
        try {
          if (settings.depositEvery > 0 && i % settings.depositEvery === settings.depositEvery - 1) {
            const paid = await payDeposit({ must, product, token: busd, shoppers }, lane, i, dollars);
            payments.push(paid.payment);
            deposits.push(paid.deposit);
            continue;
          }
          const expected = (
            await must('POST', `/api/v1/products/${product.id}/expected_payments`, {
              dollar_amount: dollars,
              customer_email: `shopper${i}@example.com`,
            })
          ).expected_payment as { id: string };
          const session = (
            await must(
              'POST',
              `/api/v1/checkout/${product.slug}/sessions`,
              {
                expected_payment_id: expected.id,
                email: `shopper${i}@example.com`,
                custom_fields: {},
                sender_address: shoppers.address(lane),
                token_address: busd.address,
              },
              'none',
            )
          ).session as { id: string; reference: string };
          const mined = await shoppers.transfer(
            lane,
            busd.address,
            merchant.address as Address,
            parseUnits(dollars, busd.decimals),
            session.reference,
          );
          const closedTab =
            settings.closedTabEvery > 0 && i % settings.closedTabEvery === settings.closedTabEvery - 1;
          const payment = { expectedPaymentId: expected.id, txHash: mined.hash.toLowerCase(), closedTab };
          payments.push(payment);
          // Every n-th payment is partly refunded once resolved (the run goes on meanwhile).
          if (settings.refundEvery > 0 && i % settings.refundEvery === 1 % settings.refundEvery) {
            const nth = Math.floor(i / settings.refundEvery);
            const claimed =
              settings.refundClaimEvery > 0 &&
              nth % settings.refundClaimEvery === settings.refundClaimEvery - 1;
            refundFlows.push(refunder.refund(payment, i, claimed));
          }
          if (!closedTab) {
            const res = await call(
              'POST',
              `/api/v1/checkout/sessions/${session.id}/transactions`,
              { tx_hash: mined.hash },
              'none',
            );
            // 202 (no worker took it in time) and 503 keep the hash for the hand-over's sweep.
            if (![200, 202, 503].includes(res.status)) paymentErrors.push(`submit ${res.status} ${res.text}`);
            // A second tab pays the same order again: an unmatched transfer, never a second payment.
            if (settings.strayEvery > 0 && i % settings.strayEvery === 0) {
              const again = await shoppers.transfer(
                lane,
                busd.address,
                merchant.address as Address,
                parseUnits(dollars, busd.decimals),
                session.reference,
              );
              strays.push(again.hash.toLowerCase());
            }
          }
        } catch (error) {
          paymentErrors.push((error as Error).message);
        }
      }
    })(),
  );

  // Onramps: one approved user, each onramp funded through the sandbox bank partner.
  const onramps: ChaosOnramp[] = [];
  const onrampLane = (async () => {
    if (settings.onramps === 0) return;
    const user = (
      await must(
        'POST',
        '/users',
        {
          user: {
            beneficiary_type: 'individual',
            first_name: 'Ada',
            last_name: 'Lovelace',
            email: 'ada@example.com',
            date_of_birth: '10/12/1985',
            address_line1: '1 Market Street',
            city: 'San Francisco',
            state: 'CA',
            postcode: '94105',
            country: 'US',
            nationality: 'GB',
            phone: '+14155552671',
            ssn: '123-45-6789',
          },
        },
        'key',
      )
    ).user as { id: string };
    await must('PATCH', `/sandbox/users/${user.id}/kycs`, { kyc: { status: 'approved' } }, 'key');
    for (let tries = 0; ; tries++) {
      const got = await must('GET', `/users/${user.id}`, undefined, 'key');
      if (got.user.kyc.usd?.status === 'approved') break;
      if (tries > 600) throw new Error('the KYC decision was never applied');
      await sleep(500);
    }
    for (let i = 0; i < settings.onramps; i++) {
      await sleep(Math.floor((settings.durationSeconds * 1000) / settings.onramps / 2));
      const destination = privateKeyToAddress(`0x${randomBytes(32).toString('hex')}`);
      const amount = `${10 + i}.00`;
      const created = (
        await must(
          'POST',
          `/users/${user.id}/onramps`,
          {
            onramp: {
              destination_amount: amount,
              crypto_currency: 'usdc',
              crypto_rails: 'binance-smart-chain',
              destination_address: destination,
              fiat_currency: 'usd',
              fiat_rails: 'ach_push',
            },
          },
          'key',
        )
      ).onramp as { id: string; deposit_amount: number };
      onramps.push({ id: created.id, destination, amount });
      await must(
        'POST',
        `/sandbox/users/${user.id}/onramps/${created.id}/deposit`,
        { amount: String(created.deposit_amount) },
        'key',
      );
    }
    return user.id;
  })();

  const [, userId] = await Promise.all([Promise.all(lanes), onrampLane]);
  // Refunds are requested, claimed and paid while workers keep dying.
  const refunds = await Promise.all(refundFlows);
  while (kills < settings.minKills) await sleep(500);
  chaosOn = false;
  await killer;
  progress(
    `workload sent (${payments.length} payments, ${refunds.length} refunds, ${onramps.length} onramps, ${kills} kills); settling`,
  );

  // Settle: every payment resolved, its e-mails and webhook in; every onramp sent; bounded.
  const resolvedOf = async () =>
    (
      await db.query<{ expected_payment_id: string; id: string; tx_id: string }>(
        'select expected_payment_id, id, tx_id from resolved_payments',
      )
    ).rows;
  const unmatchedOf = async () =>
    (
      await db.query<UnmatchedRow>(
        'select id, tx_hash, kind, mail_batch from unmatched_transfers order by created_at, id',
      )
    ).rows;
  const refundRowsOf = async () =>
    (
      await db.query<RefundRow>(
        'select id, resolved_payment_id, status, lower(tx_hash) as tx_hash from refunds',
      )
    ).rows;
  const requested = refunds.filter((r) => r.refundId);
  const refundMails = requested.reduce((n, r) => n + refundMessageIdsOf(r, r.refundId ?? '').length, 0);
  const refundHooks = requested.reduce((n, r) => n + refundStatusesOf(r).length, 0);
  const settleDeadline = Date.now() + settings.settleSeconds * 1000;
  for (;;) {
    const resolved = await resolvedOf();
    const unmatched = await unmatchedOf();
    const inboxed = await inbox.list();
    const mails = inboxed.length;
    const messageIds = new Set(inboxed.map((m) => m.messageId));
    // Every resolved payment's own two e-mails, by Message-ID: other mails (notices of a payment made twice,
    // grouped unmatched transfers) must not end the wait while one of them is still being sent.
    const paymentMailsIn = resolved.every((r) =>
      ['customer', 'merchant'].every((kind) => messageIds.has(`<${r.id}.${kind}@stable-checkout>`)),
    );
    // Every unmatched transfer's e-mail: its batch's, which tells of several when they came close together.
    const unmatchedMailsIn = unmatched.every((u) => messageIds.has(unmatchedMessageIdOf(u, unmatched) ?? ''));
    const hooks = new Set(
      recorder.received
        .filter((r) => r.event === 'resolved_payment.created')
        .map((r) => r.body.expected_payment_id),
    );
    const sent = userId
      ? (
          await Promise.all(
            onramps.map(
              async (o) =>
                (
                  await must('GET', `/users/${userId}/onramps/${o.id}`, undefined, 'key')
                ).onramp.status,
            ),
          )
        ).filter((s) => s === 'crypto_sent').length
      : 0;
    const refundRows = await refundRowsOf();
    const refundHooksIn = new Set(
      recorder.received
        .filter((r) => r.event === 'refund.updated')
        .map((r) => `${r.body.payload?.refund?.id}:${r.body.payload?.refund?.status}`),
    ).size;
    const done =
      resolved.length >= payments.length &&
      unmatched.length >= strays.length &&
      mails >= payments.length * 2 + refundMails &&
      paymentMailsIn &&
      unmatchedMailsIn &&
      hooks.size >= payments.length &&
      refundRows.filter((r) => r.status === 'confirmed').length >= requested.length &&
      refundHooksIn >= refundHooks &&
      sent >= onramps.length;
    if (done || Date.now() > settleDeadline) break;
    await sleep(2_000);
  }
  // A quiet spell, so a late duplicate would still be counted.
  await sleep(10_000);

  const resolved = await resolvedOf();
  const received = await inbox.list();
  const { mails, takeOvers } = setAsideTakeOvers(received, await takenOverMessageIds(db));
  const unmatched = await unmatchedOf();
  const effects = await countEffects({
    resolved,
    mails,
    received: recorder.received,
    payments,
    strays,
    unmatched,
    onramps,
    kills,
    requestErrors: paymentErrors.length,
    onrampStatus: async (o) =>
      userId ? (await must('GET', `/users/${userId}/onramps/${o.id}`, undefined, 'key')).onramp : undefined,
    balanceOf: (o) =>
      publicClient.readContract({
        address: usdc.address,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [o.destination],
      }),
    decimals: usdc.decimals,
  });
  // Each refunded payment as the merchant reads it: its exception status says what confirmed refunds gave back.
  const listed = (await must('GET', `/api/v1/products/${product.id}/resolved_payments`))
    .resolved_payments as Array<{ id: string; payment: { exception_status: string | null } }>;
  const refundCount = countRefunds({
    refunds,
    rows: await refundRowsOf(),
    mails,
    received: recorder.received,
    unmatched,
    resolved,
    exceptionStatus: new Map(listed.map((p) => [p.id, p.payment.exception_status])),
  });
  const sweeps = await countSweeps({
    db,
    publicClient: publicClient as PublicClient,
    token: busd.address,
    deposits,
    deadline: Date.now() + 60_000,
  });
  const counts = {
    ...effects.counts,
    ...refundCount.counts,
    ...sweeps.counts,
    emailTakeOverRetries: takeOvers,
  };
  const faults = effects.faults + refundCount.faults + sweeps.faults;

  const report = {
    startedAt: startedAt.toISOString(),
    settings: { ...settings, adminUrl: undefined },
    counts,
    paymentErrors: paymentErrors.slice(0, 20),
    refundErrors: refunds.flatMap((r) => (r.error ? [`refund ${r.index}: ${r.error}`] : [])).slice(0, 20),
    // Which e-mails came more than once, to look into a duplicate.
    repeatedMessageIds: received
      .map((m) => m.messageId)
      .filter((id, at, ids) => ids.indexOf(id) !== at)
      .filter((id, at, ids) => ids.indexOf(id) === at),
  };
  mkdirSync(join(root, '.bench'), { recursive: true });
  const file = join(root, '.bench', `chaos-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  for (const [key, value] of Object.entries(counts)) process.stdout.write(`${key.padEnd(30)} ${value}\n`);
  process.stdout.write(`${faults === 0 ? 'PASS' : 'FAIL'}: ${faults} faults; written to ${file}\n`);
  return faults === 0 ? 0 : 1;
}

let code = 1;
try {
  code = process.argv.includes('--rpc-faults') ? await runRpcFaults(cleanups) : await main();
} catch (error) {
  process.stderr.write(`chaos: ${(error as Error).stack ?? String(error)}\n`);
} finally {
  killServiceProcesses();
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
}
process.exit(code);
