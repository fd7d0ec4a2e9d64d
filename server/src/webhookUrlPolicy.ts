/** Refuses, when a webhook URL is saved, a target that deliveries would refuse anyway. */
import { recordInvalid } from '@checkout/core';
import { isForbiddenWebhookHost } from '@checkout/workflows';

/**
 * Throws the 422 naming `path` when `url` points at loopback, a private network or another
 * non-public literal address (or `localhost`) and the configuration does not allow such targets.
 * Names that resolve to such addresses are refused at delivery time, where DNS is asked.
 */
export function assertWebhookUrlAllowed(
  url: string | null | undefined,
  path: string,
  allowPrivate: boolean,
): void {
  if (!url || allowPrivate) return;
  let hostname: string;
  try {
    hostname = new URL(url).hostname;
  } catch {
    return; // The schema has already refused what does not parse.
  }
  if (isForbiddenWebhookHost(hostname)) {
    throw recordInvalid([
      {
        path,
        message: 'must reach a public address: loopback, private and link-local targets are not allowed',
      },
    ]);
  }
}
