/** What the worker's activities are built from: each family's deps pick what they use. */
import type { ChainClients } from '@checkout/chain';
import type { TokenRegistry } from '@checkout/core';
import type { Db, SecretBox } from '@checkout/db';
import type { Mailer } from '@checkout/mail';

/** The service's resources an activity may use. */
export interface WorkerResources {
  db: Db;
  /** Seals and opens what is stored encrypted (webhook payloads, customers' e-mail addresses). */
  secrets: SecretBox;
  tokens: TokenRegistry;
  /** Chains with an RPC endpoint. */
  chains: ChainClients;
  /** Absent when no SMTP server is configured: e-mails are then skipped (and logged). */
  mailer?: Mailer | undefined;
  /** Where the hosted pages are (a refund's claim and pay links). */
  publicBaseUrl: string;
}
