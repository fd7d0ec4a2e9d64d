/**
 * The payment itself: the service's transaction for a direct payment, or an approval (when needed) and a
 * swap with exact output that carries the session's reference, both paying the session's own deposit address
 * when it has one.
 */

import { erc20NoReturnAbi } from '@checkout/core/erc20';
import { deadlineIn, uniswapV2RouterAbi } from '@checkout/core/uniswapV2Router';
import { sendTransaction, waitForTransactionReceipt, writeContract } from '@wagmi/core';
import { getAddress, type Hex, parseUnits } from 'viem';
import type { WalletContext } from './payment-options.ts';
import type { PaymentOrder, PaymentPlan } from './types.ts';

/** A swap not mined within 20 minutes is void rather than executed at a stale price. */
const swapDeadlineSeconds = 20 * 60;

/**
 * Asks the wallet to sign and send the payment (after an approval for a swap that needs one); resolves to
 * the payment's hash. A direct payment is the order's transaction exactly as the service built it (the
 * token's `transfer` of the exact amount, followed by the reference); without one (a session this page
 * could not change to the product token) the same transfer is written here. A swap buys exactly the
 * order's amount, with the reference appended to the router call (`dataSuffix`); the approval carries
 * none. The payment goes where the session is paid (`paymentAddressOf` in
 * `workflows/src/checkout/matching.ts`): its deposit address when it has one (a session opened for another
 * device, then paid from this browser), which pays it whatever the transaction, else the receiving address.
 * Writes use the ABI without return values: USDT-style tokens return nothing.
 */
export async function sendPayment(
  { config, chain, address, view }: WalletContext,
  plan: PaymentPlan,
  order: PaymentOrder,
  onStep: (step: 'approve' | 'pay') => void,
): Promise<string> {
  const receiving = getAddress(order.deposit_address ?? view.receiving_address);
  const productToken = getAddress(view.token.address);
  const amountOut = parseUnits(order.expected_token_amount, view.token.decimal_count);
  const from = { chainId: chain.id, account: address };
  const dataSuffix = order.reference as Hex | undefined;
  if (plan.kind === 'direct') {
    onStep('pay');
    const tx = order.transaction;
    return tx
      ? sendTransaction(config, { ...from, to: getAddress(tx.to), data: tx.data as Hex, value: 0n })
      : writeContract(config, {
          ...from,
          address: productToken,
          abi: erc20NoReturnAbi,
          functionName: 'transfer',
          args: [receiving, amountOut],
          dataSuffix,
        });
  }
  if (!view.router_address || !plan.spendMax) throw new Error('swap without a router');
  const router = getAddress(view.router_address);
  const tokenIn = getAddress(plan.payToken.address);
  const max = parseUnits(plan.spendMax, plan.payToken.decimal_count);
  if (plan.needsApproval) {
    onStep('approve');
    const approval = await writeContract(config, {
      ...from,
      address: tokenIn,
      abi: erc20NoReturnAbi,
      functionName: 'approve',
      args: [router, max],
    });
    const receipt = await waitForTransactionReceipt(config, { chainId: chain.id, hash: approval });
    if (receipt.status !== 'success') throw new Error('The approval was reverted');
    plan.needsApproval = false;
  }
  onStep('pay');
  return writeContract(config, {
    ...from,
    address: router,
    abi: uniswapV2RouterAbi,
    functionName: 'swapTokensForExactTokens',
    args: [amountOut, max, [tokenIn, productToken], receiving, deadlineIn(swapDeadlineSeconds)],
    dataSuffix,
  });
}
