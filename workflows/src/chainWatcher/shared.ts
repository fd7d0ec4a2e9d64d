/** Names and types shared by the chain watcher's workflow, activities and starter. */
import { defineSignal } from '@temporalio/workflow';

/** The watcher of one chain. */
export interface ChainWatcherInput {
  chainId: number;
}

/** What one tick of the watcher did. */
export interface WatchTick {
  /** The first block whose logs are not known complete (the newer ones are read again). */
  nextBlock: string;
  /** The chain's head when the tick looked. */
  headBlock: string;
  /** The newest block read; absent in ticks recorded before it was reported. */
  readTo?: string;
  /** Transfers recorded for the first time. */
  recorded: number;
  /** Sessions told of a transfer. */
  signalled: number;
  /** How long to wait before the next tick. */
  sleepMs: number;
  /**
   * Whether to follow the chain block by block until the next tick (a shopper pays from a phone); absent
   * in ticks recorded before the watcher could.
   */
  follow?: boolean;
}

/**
 * The workflow id of a chain's watcher: one per chain and task queue (a deployment; several may share a
 * Temporal namespace, each with its own database).
 */
export function chainWatcherWorkflowId(chainId: number, taskQueue: string): string {
  return `chain-watcher-${chainId}@${taskQueue}`;
}

/**
 * A session that a phone may pay (no payer's wallet named) opened on the chain: a watcher sleeping out its
 * interval ticks at once, and then follows the chain block by block while such a session waits.
 */
export const payerlessSessionOpenedSignal = defineSignal<[]>('payerlessSessionOpened');
