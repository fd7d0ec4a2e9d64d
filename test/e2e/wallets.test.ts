/// <reference lib="dom" />
/**
 * `<crypto-checkout>` against wallets that are not ready to pay: on another network (known or not),
 * refusing to switch, short of funds, failing with an RPC error, found only as `window.ethereum` (also
 * when it is installed after the page loaded), or sending a transaction that reverts. Each case shows a
 * clear message, offers a way on, and never sends a payment twice; every flow runs in Chromium against
 * the real service, Temporal and a local chain.
 */
import { type Address, createWalletClient, erc20Abi, type Hex, http, parseUnits } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable } from '../support/database.ts';
import { randomAddress } from '../support/service.ts';
import { browserUnavailable } from './support/browser.ts';
import { artifacts, type CheckoutHarness, startCheckoutHarness } from './support/checkoutHarness.ts';

const wrongNetwork = 'Your wallet is on another network. Switch it to BNB Smart Chain Testnet and try again.';

describe.skipIf(databaseUnavailable() || browserUnavailable())(
  'checkout element with difficult wallets',
  () => {
    let h: CheckoutHarness;

    beforeAll(async () => {
      h = await startCheckoutHarness();
    });
    afterAll(async () => {
      await h?.stop();
    });

    const checkoutPath = async (dollars: string, overrides: Record<string, unknown> = {}) => {
      const product = await h.createProduct(overrides);
      const expected = await h.expectPayment(product.id, dollars);
      return { product, expected, path: `/checkout/${product.slug}?expected_payment=${expected.id}` };
    };

    /** Sends `amount` whole BUSD from the account of `key` to a stranger. */
    const spend = async (key: Hex, amount: string) => {
      const client = createWalletClient({
        account: privateKeyToAccount(key),
        transport: http(h.chain.chain.rpcUrl),
      });
      const hash = await client.writeContract({
        chain: null,
        address: h.busd,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [randomAddress() as Address, parseUnits(amount, 18)],
      });
      await h.chain.publicClient.waitForTransactionReceipt({ hash });
    };

    const switches = (requests: Array<{ method: string; params: unknown[] }>) =>
      requests
        .filter((r) => r.method === 'wallet_switchEthereumChain' || r.method === 'wallet_addEthereumChain')
        .map((r) => `${r.method}:${(r.params[0] as { chainId: string }).chainId}`);

    it('asks a wallet on another network to switch, also when it leaves again before paying', async () => {
      const { path } = await checkoutPath('4.00');
      const shopper = await h.freshShopper('10');
      const { page, wallet } = await h.openPage(shopper, path, { wallet: { startChainId: 1 } });
      await h.fillShopper(page);
      await page.getByRole('button', { name: 'Pay with Test Wallet' }).click();
      await page.getByRole('button', { name: 'Pay now' }).waitFor();
      expect(wallet.chainId).toBe(97);
      expect(switches(wallet.requests)).toEqual(['wallet_switchEthereumChain:0x61']);

      // The shopper moves the wallet to another network in the wallet itself, then pays.
      await wallet.switchTo(56);
      await page.getByRole('button', { name: 'Pay now' }).click();
      const result = await h.outcome(page);
      expect(result.type, JSON.stringify(result.detail)).toBe('checkout-success');
      expect(switches(wallet.requests)).toEqual([
        'wallet_switchEthereumChain:0x61',
        'wallet_switchEthereumChain:0x61',
      ]);
      expect(wallet.sent).toHaveLength(1);
      await h.expectWebhookFor(result.detail.resolvedPaymentId!);
      await page.close();
    });

    it('adds the network when the wallet does not know it (4902), then pays', async () => {
      const { path } = await checkoutPath('4.10');
      const shopper = await h.freshShopper('10');
      const { page, wallet } = await h.openPage(shopper, path, {
        wallet: { startChainId: 1, knownChains: [1] },
      });
      await h.fillShopper(page);
      await page.getByRole('button', { name: 'Pay with Test Wallet' }).click();
      await page.getByRole('button', { name: 'Pay now' }).waitFor();
      expect(switches(wallet.requests)).toEqual([
        'wallet_switchEthereumChain:0x61',
        'wallet_addEthereumChain:0x61',
      ]);
      const added = wallet.requests.find((r) => r.method === 'wallet_addEthereumChain')!.params[0];
      expect(added).toMatchObject({
        chainId: '0x61',
        chainName: 'BNB Smart Chain Testnet',
        nativeCurrency: { symbol: 'BNB', decimals: 18 },
        rpcUrls: [h.chain.chain.rpcUrl],
      });
      await page.getByRole('button', { name: 'Pay now' }).click();
      await h.expectPaidOnce(page, wallet);
      await page.close();
    });

    it('asks to switch again at once when the wallet added the network but stayed where it was', async () => {
      const { path } = await checkoutPath('4.15');
      const shopper = await h.freshShopper('10');
      const { page, wallet } = await h.openPage(shopper, path, {
        wallet: { startChainId: 1, knownChains: [1], switchOnAdd: false },
      });
      await h.fillShopper(page);
      await page.getByRole('button', { name: 'Pay with Test Wallet' }).click();
      // No "another network" message and no extra click: the review comes straight after the add.
      await page.getByRole('button', { name: 'Pay now' }).waitFor();
      expect(await h.elementText(page)).not.toContain('another network');
      expect(switches(wallet.requests)).toEqual([
        'wallet_switchEthereumChain:0x61',
        'wallet_addEthereumChain:0x61',
        'wallet_switchEthereumChain:0x61',
      ]);
      expect(wallet.chainId).toBe(97);
      await page.getByRole('button', { name: 'Pay now' }).click();
      await h.expectPaidOnce(page, wallet);
      await page.close();
    });

    it('explains a refused network switch, and switches when the shopper tries again', async () => {
      const { path } = await checkoutPath('4.20');
      const shopper = await h.freshShopper('10');
      const { page, wallet } = await h.openPage(shopper, path, { wallet: { startChainId: 1 } });
      wallet.failNext('wallet_switchEthereumChain', { code: 4001, message: 'User rejected the request.' });
      await h.fillShopper(page);
      await page.getByRole('button', { name: 'Pay with Test Wallet' }).click();
      await page.getByText(wrongNetwork).waitFor();
      expect(await page.getByRole('button', { name: 'Pay now' }).count()).toBe(0);
      await h.expectAccessible(page, 'switch refused');
      await page.screenshot({ path: `${artifacts}switch-refused.png` });

      await page.getByRole('button', { name: 'Try again' }).click();
      await page.getByRole('button', { name: 'Pay now' }).click();
      const result = await h.outcome(page);
      expect(result.type, JSON.stringify(result.detail)).toBe('checkout-success');
      expect(wallet.chainId).toBe(97);
      expect(wallet.calls.filter((m) => m === 'eth_sendTransaction')).toHaveLength(1);
      await h.expectWebhookFor(result.detail.resolvedPaymentId!);
      await page.close();
    });

    it('says the balance is too low before asking to pay, and pays once the shopper has funds', async () => {
      const { path } = await checkoutPath('9.99', { custom_fields: [] });
      const shopper = await h.freshShopper('1');
      const address = privateKeyToAccount(shopper).address;
      const { page, wallet } = await h.openPage(shopper, path);
      await page.getByLabel('E-mail').fill('shopper@example.com');
      await page.getByRole('button', { name: 'Pay with Test Wallet' }).click();
      // What the wallet holds of each stablecoin the checkout takes (a swappable product takes four).
      await page
        .getByText(
          /^Your wallet does not hold enough to pay 9\.99 BUSD\. It holds 1 BUSD, 0 USDC, 0 DAI, and 0 USDT\.$/,
        )
        .waitFor();
      expect(await page.getByRole('button', { name: 'Pay now' }).count()).toBe(0);
      await h.expectAccessible(page, 'insufficient balance');
      await page.screenshot({ path: `${artifacts}insufficient.png` });
      expect(wallet.calls).not.toContain('eth_sendTransaction');

      await h.chain.transfer(0, h.busd, address, parseUnits('20', 18));
      await page.getByRole('button', { name: 'Try again' }).click();
      await page.getByText('You send 9.99 BUSD.').waitFor();
      await page.getByRole('button', { name: 'Pay now' }).click();
      const result = await h.outcome(page);
      expect(result.type, JSON.stringify(result.detail)).toBe('checkout-success');
      expect(wallet.sent).toHaveLength(1);
      expect(await h.busdBalance(address)).toBe(parseUnits('11.01', 18));
      await h.expectWebhookFor(result.detail.resolvedPaymentId!);
      await page.close();
    });

    it('finds no way to pay a swappable product with an empty wallet, and sends nothing', async () => {
      const { path } = await checkoutPath('3.30', { custom_fields: [], swappable: true });
      const shopper = await h.freshShopper();
      const { page, wallet } = await h.openPage(shopper, path);
      await page.getByLabel('E-mail').fill('shopper@example.com');
      await page.getByRole('button', { name: 'Pay with Test Wallet' }).click();
      // Every stablecoin the checkout takes is listed with its balance: the shopper sees what to top up.
      const message = page.getByText('Your wallet does not hold enough to pay 3.3 BUSD.');
      await message.waitFor();
      expect(await message.textContent()).toBe(
        'Your wallet does not hold enough to pay 3.3 BUSD. It holds 0 BUSD, 0 USDC, 0 DAI, and 0 USDT.',
      );
      await h.expectAccessible(page, 'nothing to pay with');
      await page.getByRole('button', { name: 'Try again' }).waitFor();
      expect(await page.getByRole('button', { name: 'Pay now' }).count()).toBe(0);
      expect(wallet.calls).not.toContain('eth_sendTransaction');
      await page.close();
    });

    it('checks the balance again when paying: spent elsewhere after review, nothing is sent', async () => {
      const { path } = await checkoutPath('5.00', { custom_fields: [] });
      const shopper = await h.freshShopper('6');
      const { page, wallet } = await h.openPage(shopper, path);
      await page.getByLabel('E-mail').fill('shopper@example.com');
      await page.getByRole('button', { name: 'Pay with Test Wallet' }).click();
      await page.getByRole('button', { name: 'Pay now' }).waitFor();
      await spend(shopper, '3');
      await page.getByRole('button', { name: 'Pay now' }).click();
      // Checked again when paying: what the wallet holds now.
      await page
        .getByText('Your wallet does not hold enough to pay 5 BUSD. It holds 3 BUSD, 0 USDC')
        .waitFor();
      expect(wallet.calls).not.toContain('eth_sendTransaction');
      await h.expectAccessible(page, 'insufficient at payment');

      await h.chain.transfer(0, h.busd, privateKeyToAccount(shopper).address, parseUnits('5', 18));
      await page.getByRole('button', { name: 'Try again' }).click();
      await h.expectPaidOnce(page, wallet);
      await page.close();
    });

    it('says the wallet has nothing for the network fee before asking it to pay, and pays once it has', async () => {
      const { path } = await checkoutPath('4.40', { custom_fields: [] });
      const shopper = await h.freshShopper('10', { fees: false });
      const address = privateKeyToAccount(shopper).address;
      const { page, wallet } = await h.openPage(shopper, path);
      await page.getByLabel('E-mail').fill('shopper@example.com');
      await page.getByRole('button', { name: 'Pay with Test Wallet' }).click();
      await page
        .getByText('Your wallet holds no BNB for the network fee. Add a little BNB, then try again.')
        .waitFor();
      expect(await page.getByRole('button', { name: 'Pay now' }).count()).toBe(0);
      await h.expectAccessible(page, 'no fee funds');
      await page.screenshot({ path: `${artifacts}no-fee-funds.png` });
      expect(wallet.calls).not.toContain('eth_sendTransaction');

      await h.setNativeBalance(address, 1n);
      await page.getByRole('button', { name: 'Try again' }).click();
      await page.getByRole('button', { name: 'Pay now' }).click();
      await h.expectPaidOnce(page, wallet);
      await page.close();
    });

    it('explains an RPC error from the wallet and pays exactly once on retry', async () => {
      const { path } = await checkoutPath('6.60');
      const shopper = await h.freshShopper('10');
      const address = privateKeyToAccount(shopper).address;
      const { page, wallet } = await h.openPage(shopper, path);
      wallet.failNext('eth_sendTransaction', { code: -32603, message: 'Internal JSON-RPC error.' });
      await h.fillShopper(page);
      await page.getByRole('button', { name: 'Pay with Test Wallet' }).click();
      await page.getByRole('button', { name: 'Pay now' }).click();
      await page.getByText('Your wallet or the network reported an error').waitFor();
      expect(wallet.sent).toHaveLength(0);
      await h.expectAccessible(page, 'rpc error');
      await page.screenshot({ path: `${artifacts}rpc-error.png` });

      await page.getByRole('button', { name: 'Try again' }).click();
      const result = await h.outcome(page);
      expect(result.type, JSON.stringify(result.detail)).toBe('checkout-success');
      expect(wallet.calls.filter((m) => m === 'eth_sendTransaction')).toHaveLength(2);
      expect(wallet.sent).toHaveLength(1);
      expect(result.detail.txHash).toBe(wallet.sent[0]);
      expect(await h.busdBalance(address)).toBe(parseUnits('3.4', 18));
      await h.expectWebhookFor(result.detail.resolvedPaymentId!);
      await page.close();
    });

    it('offers the window.ethereum wallet when none announces itself, and pays with it', async () => {
      const { path } = await checkoutPath('2.50');
      const shopper = await h.freshShopper('10');
      const { page, wallet } = await h.openPage(shopper, path, {
        wallet: { announce: false, injectWindowEthereum: true },
      });
      await h.fillShopper(page);
      expect(await page.getByRole('button', { name: 'Pay with Test Wallet' }).count()).toBe(0);
      await page.getByRole('button', { name: 'Pay with Browser wallet' }).click();
      await page.getByRole('button', { name: 'Pay now' }).click();
      await h.expectPaidOnce(page, wallet);
      await page.close();
    });

    it('offers a window.ethereum that the wallet installs after the page loaded, and pays with it', async () => {
      const { path } = await checkoutPath('2.60');
      const shopper = await h.freshShopper('10');
      const { page, wallet } = await h.openPage(shopper, path, { wallet: { announce: false } });
      const noWallet = page.getByText('No wallet found in this browser.');
      await noWallet.waitFor();
      await h.expectAccessible(page, 'no wallet');

      // Announced with `ethereum#initialized`: the list follows without anything else happening on the page.
      await wallet.installWindowEthereum();
      await page.getByRole('button', { name: 'Pay with Browser wallet' }).waitFor();
      expect(await noWallet.count()).toBe(0);
      await h.fillShopper(page);
      await page.getByRole('button', { name: 'Pay with Browser wallet' }).click();
      await page.getByRole('button', { name: 'Pay now' }).click();
      await h.expectPaidOnce(page, wallet);
      await page.close();
    });

    it('finds a window.ethereum installed late without any event once the shopper moves into the checkout', async () => {
      const { path } = await checkoutPath('2.70');
      const { page, wallet } = await h.openPage(await h.freshShopper('10'), path, {
        wallet: { announce: false },
      });
      const noWallet = page.getByText('No wallet found in this browser.');
      await noWallet.waitFor();
      await wallet.installWindowEthereum({ initializedEvent: false });
      // Nothing on the page has changed yet, so the element still shows what it found before.
      expect(await noWallet.count()).toBe(1);
      await page.getByLabel('E-mail').focus();
      await page.getByRole('button', { name: 'Pay with Browser wallet' }).waitFor();
      expect(await noWallet.count()).toBe(0);
      expect(wallet.calls).toEqual([]);
      await page.close();
    });

    it('shows a payment whose transaction reverts on chain as failed and emits checkout-failure', async () => {
      const { path } = await checkoutPath('7.70');
      const shopper = await h.freshShopper('10');
      const address = privateKeyToAccount(shopper).address;
      const { page, wallet } = await h.openPage(shopper, path);
      wallet.revertNext();
      await h.fillShopper(page);
      await page.getByRole('button', { name: 'Pay with Test Wallet' }).click();
      await page.getByRole('button', { name: 'Pay now' }).click();
      const result = await h.outcome(page);
      expect(result).toMatchObject({
        type: 'checkout-failure',
        detail: { reason: 'failed', txHash: wallet.sent[0] },
        bubbles: true,
        composed: true,
        cancelable: true,
      });
      await page.getByText('The payment failed').waitFor();
      expect(await h.elementText(page)).toContain('The transaction was reverted on the network');
      await h.expectAccessible(page, 'failed');
      await page.screenshot({ path: `${artifacts}failed.png` });
      expect(wallet.sent).toHaveLength(1);
      expect(await h.busdBalance(address)).toBe(parseUnits('10', 18));
      const hook = (await h.expectWebhookFor(result.detail.resolvedPaymentId!)) as unknown as {
        payment: { tx_failure: boolean; tx_id: string };
      };
      expect(hook.payment).toMatchObject({ tx_failure: true, tx_id: wallet.sent[0] });
      await page.close();
    });
  },
);
