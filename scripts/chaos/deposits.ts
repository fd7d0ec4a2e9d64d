/**
 * Phone payments to deposit addresses in the chaos run: every n-th payment opens a session without a
 * payer (the service runs the test network in `deposit_address` mode) and pays its deposit address a
 * rounded, a net-of-fee or the exact amount, with no hash submitted. Each is then counted as a payment
 * like any other (resolved once, with that transfer; its e-mails and webhook), and here for its sweep:
 * the address emptied into the merchant's wallet (lost: still holding funds), and no session swept twice
 * through the same block (two mined sweeps covering one payment).
 */
import { erc20Abi } from '@checkout/chain';
import type pg from 'pg';
import { type Address, type PublicClient, parseUnits } from 'viem';
import type { Shoppers } from '../bench/checkout/shoppers.ts';
import type { ChaosPayment } from './count.ts';

/** A deposit address the run paid. */
export interface ChaosDeposit {
  sessionId: string;
  address: Address;
  amount: bigint;
}

/** What paying one deposit address needs. */
export interface DepositPayer {
  must: (
    method: string,
    path: string,
    body?: unknown,
    auth?: 'wallet' | 'key' | 'none',
  ) => Promise<Record<string, unknown>>;
  product: { id: string; slug: string };
  token: { address: Address; decimals: number };
  shoppers: Shoppers;
}

/** Opens a phone session of `dollars` and pays its deposit address the `i`-th way; the payment to count. */
export async function payDeposit(
  payer: DepositPayer,
  lane: number,
  i: number,
  dollars: string,
): Promise<{ payment: ChaosPayment; deposit: ChaosDeposit }> {
  const expected = (
    await payer.must('POST', `/api/v1/products/${payer.product.id}/expected_payments`, {
      dollar_amount: dollars,
      customer_email: `phone${i}@example.com`,
    })
  ).expected_payment as { id: string };
  const session = (
    await payer.must(
      'POST',
      `/api/v1/checkout/${payer.product.slug}/sessions`,
      {
        expected_payment_id: expected.id,
        email: `phone${i}@example.com`,
        custom_fields: {},
        token_address: payer.token.address,
      },
      'none',
    )
  ).session as { id: string; deposit_address: Address | null };
  if (!session.deposit_address) throw new Error('a phone session got no deposit address');
  const price = parseUnits(dollars, payer.token.decimals);
  const cent = parseUnits('0.01', payer.token.decimals);
  // A wallet that rounds up, an exchange that takes 0.80 out, or the amount typed exactly.
  const amount = [price + cent, price - 80n * cent, price][i % 3]!;
  const mined = await payer.shoppers.transfer(lane, payer.token.address, session.deposit_address, amount);
  return {
    payment: { expectedPaymentId: expected.id, txHash: mined.hash.toLowerCase(), closedTab: true },
    deposit: { sessionId: session.id, address: session.deposit_address, amount },
  };
}

/** Waits (until `deadline`) for every deposit address to be swept, then counts what the sweeps did. */
export async function countSweeps(input: {
  db: pg.Client;
  publicClient: PublicClient;
  token: Address;
  deposits: readonly ChaosDeposit[];
  deadline: number;
}): Promise<{ counts: Record<string, number>; faults: number }> {
  const holding = async () => {
    const balances = await Promise.all(
      input.deposits.map((d) =>
        input.publicClient.readContract({
          address: input.token,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [d.address],
        }),
      ),
    );
    return balances.filter((b) => b > 0n).length;
  };
  let unswept = await holding();
  while (unswept > 0 && Date.now() < input.deadline) {
    await new Promise((r) => setTimeout(r, 1_000));
    unswept = await holding();
  }
  const ids = input.deposits.map((d) => d.sessionId);
  const twice = await input.db.query<{ n: string }>(
    `select count(*) as n from (select ss.session_id, ss.through_block from deposit_sweep_sessions ss
       join deposit_sweeps w on w.id = ss.sweep_id
       where w.status = 'mined' and ss.session_id = any($1::uuid[])
       group by 1, 2 having count(*) > 1) doubled`,
    [ids],
  );
  const sweeps = await input.db.query<{ n: string }>(
    `select count(distinct w.id) as n from deposit_sweeps w join deposit_sweep_sessions ss on ss.sweep_id = w.id
       where w.status = 'mined' and ss.session_id = any($1::uuid[])`,
    [ids],
  );
  const sweptTwice = Number(twice.rows[0]?.n ?? 0);
  return {
    counts: {
      depositPayments: input.deposits.length,
      depositSweeps: Number(sweeps.rows[0]?.n ?? 0),
      depositsNotSwept: unswept,
      depositsSweptTwice: sweptTwice,
    },
    faults: unswept + sweptTwice,
  };
}
