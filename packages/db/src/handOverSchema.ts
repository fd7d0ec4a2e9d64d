/** Table types of the hand-over to Temporal: the workflow calls domain steps queue in their own transaction. */
import type { Generated, Selectable } from 'kysely';
import type { Json, Timestamp } from './columnTypes.ts';

/** What a queued call carries besides its workflow: arguments, the signal, and how the workflow is shown. */
export interface StoredWorkflowCall {
  /** The workflow's input (a start's, and a signal-with-start's should it start the workflow; none for a signal). */
  args: unknown[];
  /** For `signal` and `signal_with_start`: the signal and its arguments. */
  signal?: { name: string; args: unknown[] };
  /** Search attributes set at start, by name: a string, or the strings of a KeywordList. */
  searchAttributes?: Record<string, string | string[]>;
  memo?: Record<string, unknown>;
  /** The one-line summary and the details the Temporal UI shows. */
  staticSummary?: string;
  staticDetails?: string;
  /** A workflow id that never runs twice: once a run ended, the call is taken without a new one. */
  once?: boolean;
}

/** A call into Temporal queued by a domain step, made after its transaction commits (the outbox). */
export interface WorkflowCallsTable {
  id: string;
  /** `signal` reaches a running workflow only: one that has ended (or never started) is left alone. */
  kind: 'start' | 'signal' | 'signal_with_start';
  workflow_type: string;
  workflow_id: string;
  call: Json<StoredWorkflowCall>;
  created_at: Timestamp;
  /** When Temporal took the call; null while it waits. */
  taken_at: Timestamp | null;
  /** Calls made that Temporal did not take. */
  attempts: Generated<number>;
  last_error: string | null;
}

/** The hand-over tables, part of the Database. */
export interface HandOverTables {
  workflow_calls: WorkflowCallsTable;
}

export type WorkflowCallRow = Selectable<WorkflowCallsTable>;
