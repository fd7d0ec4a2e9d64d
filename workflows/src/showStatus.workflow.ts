/**
 * Shows where a workflow stands in the Temporal UI (workflow code): the `Summary` search attribute (a column
 * of the workflow list, and a full-text filter) and the current details (the workflow page's "Current
 * Details", read by the UI through the SDK's metadata query), together with the status attributes that
 * change with them, in one upsert.
 */
import type { SearchAttributeUpdatePair } from '@temporalio/common';
import { setCurrentDetails, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import { Summary } from './shared.ts';
import type { ShownStatus } from './summaries.ts';

/** The workflow's memo, from which its shown title is built. */
export function ownMemo(): Record<string, unknown> | undefined {
  return workflowInfo().memo;
}

/** Sets the current details only (no history event): for a step between two recorded statuses. */
export function showDetails(shown: ShownStatus): void {
  setCurrentDetails(shown.details);
}

/** Sets the `Summary` search attribute with `attributes`, and the current details. */
export function showStatus(shown: ShownStatus, attributes: SearchAttributeUpdatePair[] = []): void {
  upsertSearchAttributes([...attributes, { key: Summary, value: shown.summary }]);
  setCurrentDetails(shown.details);
}
