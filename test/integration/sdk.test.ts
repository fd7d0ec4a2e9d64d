/**
 * The merchant SDK as a merchant gets it: built, packed with `npm pack`, installed from the tarball into a
 * scratch project, type-checked there against the generated types of the live document, and run with plain
 * Node against the real service: it creates a product and an expected payment (each POST with an
 * Idempotency-Key of its own), reads an error in the one error shape, and verifies a signed webhook.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable } from '../support/database.ts';
import { startTestService, type TestMerchant, type TestService } from '../support/service.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const consumer = `import { createCheckoutClient, signWebhook, verifyWebhookSignature, webhookSignatureHeader, type CheckoutApiError } from '@stable-checkout/client';

const client = createCheckoutClient({
  baseUrl: process.env.BASE_URL!,
  apiKey: process.env.API_KEY!,
  walletAddress: process.env.WALLET!,
});
const created = await client.POST('/api/v1/products', {
  body: {
    product: {
      name: 'SDK beans',
      email: 'merchant@example.com',
      active: true,
      token: { blockchain: 'binance-smart-chain', network: 'testnet', address: process.env.TOKEN! },
    },
  },
});
if (!created.data) throw new Error(JSON.stringify(created.error));
const productId: string = created.data.product.id;
const expected = await client.POST('/api/v1/products/{id}/expected_payments', {
  params: { path: { id: productId } },
  body: { dollar_amount: '12.50' },
});
if (!expected.data) throw new Error(JSON.stringify(expected.error));
const refused = await client.POST('/api/v1/products', { body: { product: { name: '' } } as never });
const error: CheckoutApiError | undefined = refused.error;
const secret = 'whsec_sdk_test';
const body = JSON.stringify({ id: 'rp_1' });
const t = Math.floor(Date.now() / 1000);
const header = webhookSignatureHeader(t, await signWebhook({ secret, timestamp: t, body }));
const verified = await verifyWebhookSignature({ secret, header, body });
console.log(JSON.stringify({
  productId,
  expectedPayment: expected.data.expected_payment.id,
  checkoutUrl: expected.data.expected_payment.checkout_url,
  refused: { status: refused.response.status, code: error?.error_code },
  verified: verified.ok,
}));
`;

describe.skipIf(databaseUnavailable())('merchant SDK package', () => {
  let service: TestService;
  let merchant: TestMerchant;
  let scratch: string;

  beforeAll(async () => {
    service = await startTestService({ temporal: false });
    merchant = await service.createMerchant();
    scratch = mkdtempSync(join(tmpdir(), 'sdk-consumer-'));
  });
  afterAll(async () => {
    await service?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('packs, installs from the tarball, type-checks and runs against the service', async () => {
    execFileSync(process.execPath, [join(root, 'packages/client/scripts/build.ts')], { stdio: 'pipe' });
    const packs = join(scratch, 'packs');
    mkdirSync(packs);
    execFileSync('npm', ['pack', '--pack-destination', packs, join(root, 'packages/client/dist')], {
      stdio: 'pipe',
    });
    const [tarball] = readdirSync(packs);
    expect(tarball).toMatch(/^stable-checkout-client-\d+\.\d+\.\d+\.tgz$/);
    const project = join(scratch, 'shop');
    mkdirSync(project);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'shop', private: true, type: 'module' }),
    );
    execFileSync(
      'npm',
      ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', join(packs, tarball!)],
      { cwd: project, stdio: 'pipe' },
    );
    writeFileSync(join(project, 'shop.ts'), consumer);
    // Type-checked as a merchant's TypeScript project would, against the package's declarations only.
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    execFileSync(
      process.execPath,
      [
        tsc,
        '--noEmit',
        '--strict',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--target',
        'es2022',
        '--allowImportingTsExtensions',
        '--skipLibCheck',
        'false',
        '--types',
        'node',
        '--typeRoots',
        join(root, 'node_modules/@types'),
        'shop.ts',
      ],
      { cwd: project, stdio: 'pipe' },
    );
    // Not a synchronous child: the service answering it runs in this process.
    const { stdout: out } = await promisify(execFile)(process.execPath, ['shop.ts'], {
      cwd: project,
      env: {
        ...process.env,
        BASE_URL: service.url,
        API_KEY: merchant.key,
        WALLET: merchant.address,
        TOKEN: service.deps.config.testnet.testTokenAddress,
      },
      encoding: 'utf8',
    });
    const result = JSON.parse(out.trim().split('\n').pop()!);
    expect(result).toMatchObject({
      refused: { status: 422, code: 'record_invalid' },
      verified: true,
    });
    expect(result.checkoutUrl).toContain(`expected_payment=${result.expectedPayment}`);
  }, 240_000);
});
