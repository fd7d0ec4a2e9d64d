/**
 * What the chain watcher records and whom it tells: the watcher reads the chain and records facts
 * (transfers in, transfers out, blocks read, reorganisations forgotten); what follows each fact is another
 * family's reaction, composed in the reaction table (`workflows/src/reactions.ts`). The watcher knows no
 * family: it is handed these reactions.
 */
import type { OutgoingTransferLog } from '@checkout/chain';
import type { ChainTransferRow, Database } from '@checkout/db';
import type { Kysely } from 'kysely';

/** Transfers out someone waits for: this token, sender and receiver, of any amount (addresses lowercase). */
export interface AwaitedTransferOut {
  token: string;
  from: string;
  to: string;
}

/** A transfer out read from the chain as it was awaited, with its block's time (epoch ms). */
export interface TransferOut extends OutgoingTransferLog {
  minedAt: number;
}

/** The reactions to what the watcher records. */
export interface ChainReactions {
  /** The transfers out of the chain someone waits for (read over each tick's blocks while there are any). */
  awaitedTransfersOut(chainId: number): Promise<AwaitedTransferOut[]>;
  /** `transfer.out`: transfers out read over a tick's blocks, each as awaited (before the tick records its transfers in). */
  transfersOut(chainId: number, transfers: readonly TransferOut[]): Promise<void>;
  /**
   * `transfer.recorded`: a transfer in, in the transaction that notes it told; the ids of the workflow calls
   * the reactions queued there (made once it commits).
   */
  transferRecorded(trx: Kysely<Database>, transfer: ChainTransferRow): Promise<string[]>;
  /** `blocks.read`: a tick's blocks are recorded (run after each tick; a failure never holds the watcher up). */
  blocksRead(chainId: number): Promise<void>;
}
