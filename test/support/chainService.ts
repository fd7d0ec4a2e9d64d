/**
 * The setup of the tests that pay on the dev chain through the whole service: a dev chain, a dev inbox, a
 * webhook receiver, and the service reading that chain and sending to that inbox with fast watcher settings
 * (`env` adds to them or overrides them).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DevInbox, startDevInbox } from '@checkout/mail';
import type { Address } from 'viem';
import { startTestChain, type TestChain } from './chain.ts';
import { startTestService, type TestService } from './service.ts';
import { startWebhookReceiver, type WebhookReceiver } from './webhookReceiver.ts';

/** What a chain-paying test runs against. */
export interface ChainService {
  chain: TestChain;
  service: TestService;
  inbox: DevInbox;
  receiver: WebhookReceiver;
  /** The dev chain's BUSD. */
  busd: Address;
  stop(): Promise<void>;
}

/** Starts the chain, the inbox and the receiver together, then the service on them. */
export async function startChainService(env: Record<string, string>): Promise<ChainService> {
  const [chain, inbox, receiver] = await Promise.all([
    startTestChain(),
    startDevInbox({ dir: mkdtempSync(join(tmpdir(), 'chain-service-inbox-')) }),
    startWebhookReceiver(),
  ]);
  const service = await startTestService({
    env: {
      RPC_URL_BINANCE_SMART_CHAIN_TESTNET: chain.chain.rpcUrl,
      SMTP_URL: inbox.smtpUrl,
      CHAIN_POLL_INTERVAL_MS: '100',
      ...env,
    },
  });
  return {
    chain,
    service,
    inbox,
    receiver,
    busd: chain.deployment.tokens.BUSD.address,
    async stop() {
      await service.stop();
      await Promise.all([chain.stop(), inbox.close(), receiver.close()]);
    },
  };
}
