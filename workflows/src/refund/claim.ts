/** The customer's claim: the address a refund waiting for one goes to (`awaiting_address` → `ready_to_pay`). */
import type { ChainClients } from '@checkout/chain';
import { ApiError } from '@checkout/core';
import type { Database, RefundRow, SecretBox } from '@checkout/db';
import type { Kysely } from 'kysely';
import { changeRefund } from './change.ts';
import { checkRefundAddress, refuseContractAddress } from './refundAddress.ts';

const notClaimable = (status: string) =>
  new ApiError('conflict', `This refund is ${status.replace(/_/g, ' ')}: it takes no address any more`);

/**
 * Records the customer's address on a refund still waiting for one within its claim window; a 409 when it
 * no longer waits (claimed, canceled, expired), a 422 naming `refund_address` for an address it could never
 * arrive at.
 */
export async function claimRefund(
  db: Kysely<Database>,
  deps: { secrets: SecretBox; publicBaseUrl: string; chains: ChainClients },
  input: { row: RefundRow; refundAddress: string; now?: Date },
): Promise<RefundRow> {
  const { row } = input;
  if (row.status !== 'awaiting_address') throw notClaimable(row.status);
  if (row.claim_expires_at.getTime() <= (input.now ?? new Date()).getTime()) throw notClaimable('expired');
  const address = checkRefundAddress(row, input.refundAddress);
  await refuseContractAddress(deps.chains, {
    chainId: row.chain_id,
    address,
    allowContract: false,
    hint: 'give the address of a wallet you hold',
  });
  const claimed = await changeRefund(db, deps, {
    refundId: row.id,
    from: ['awaiting_address'],
    to: 'ready_to_pay',
    change: { refund_address: address, address_source: 'customer' },
  });
  if (!claimed) throw notClaimable('no longer awaiting an address');
  return claimed;
}
