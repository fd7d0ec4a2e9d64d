/**
 * Signing in to the console with a smart-contract wallet (ERC-1271): the receiving wallet is a contract on the
 * dev chain that accepts its owner key's signatures (or a team member is); the service asks the contract, on the chain the message
 * names, whether the signature is valid. A contract wallet that refuses the signature is refused, and so is a
 * message naming a chain the service does not serve. A wallet not deployed yet signs in with its deployment
 * wrapped around its signature (ERC-6492), and is still not deployed afterwards.
 */
import { loadArtifact } from '@checkout/chain';
import { createApiKey } from '@checkout/db';
import {
  type Address,
  createWalletClient,
  encodeFunctionData,
  getAddress,
  type Hex,
  http,
  keccak256,
  serializeErc6492Signature,
  toHex,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../support/chain.ts';
import { postSignIn, signedMessage } from '../support/console.ts';
import { databaseUnavailable } from '../support/database.ts';
import { startTestService, type TestService } from '../support/service.ts';

const newAccount = () => privateKeyToAccount(generatePrivateKey());

describe.skipIf(databaseUnavailable())('console sign-in with a contract wallet', () => {
  let chain: TestChain;
  let service: TestService;
  const chainId = 97;

  beforeAll(async () => {
    chain = await startTestChain(chainId);
    service = await startTestService({
      temporal: false,
      env: { RPC_URL_BINANCE_SMART_CHAIN_TESTNET: chain.chain.rpcUrl },
    });
  }, 120_000);
  afterAll(async () => {
    await service?.stop();
    await chain?.stop();
  });

  /** Deploys a contract wallet accepting `owner`'s signatures. */
  async function deployWallet(owner: Address): Promise<Address> {
    const { abi, bytecode } = await loadArtifact('OwnedContractWallet');
    const deployer = createWalletClient({
      account: privateKeyToAccount(chain.deployment.shoppers[4]!.privateKey),
      transport: http(chain.chain.rpcUrl),
    });
    const hash = await deployer.deployContract({ abi, bytecode, args: [owner], chain: null });
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
    return getAddress(receipt.contractAddress!);
  }

  /** A contract wallet accepting `owner`'s signatures, made a merchant's receiving wallet. */
  async function contractWalletOf(owner: Address): Promise<Address> {
    const wallet = await deployWallet(owner);
    await createApiKey(service.deps.db.kysely, { address: wallet });
    return wallet;
  }

  it('signs in a contract wallet whose isValidSignature accepts its owner key’s signature', async () => {
    const owner = newAccount();
    const wallet = await contractWalletOf(owner.address);
    const res = await postSignIn(service, await signedMessage(service, owner, { address: wallet, chainId }));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ wallet, role: 'owner' });
    expect(res.headers.get('set-cookie')).toMatch(/^console_session=/);
  });

  it('signs in a contract wallet a merchant invited to its team, with its role', async () => {
    const merchant = await service.createMerchant();
    const owner = newAccount();
    const wallet = await deployWallet(owner.address);
    const invited = await service.request('POST', '/api/v1/team_members', {
      headers: merchant.headers,
      json: { address: wallet, role: 'support' },
    });
    expect(invited.status, invited.text).toBe(200);
    const res = await postSignIn(service, await signedMessage(service, owner, { address: wallet, chainId }));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ wallet, role: 'support', merchant_id: merchant.merchantId });
  });

  it('refuses a contract wallet whose isValidSignature refuses the signature', async () => {
    const wallet = await contractWalletOf(newAccount().address);
    const res = await postSignIn(
      service,
      await signedMessage(service, newAccount(), { address: wallet, chainId }),
    );
    expect(res.status, res.text).toBe(401);
    expect(res.body.errors).toEqual([
      { path: 'signature', message: 'is not a signature of the message by its address' },
    ]);
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('refuses a contract wallet’s signature on a chain the service does not serve', async () => {
    const owner = newAccount();
    const wallet = await contractWalletOf(owner.address);
    const res = await postSignIn(
      service,
      await signedMessage(service, owner, { address: wallet, chainId: 1 }),
    );
    expect(res.status, res.text).toBe(401);
    expect(res.body.errors).toEqual([
      {
        path: 'signature',
        message: expect.stringContaining(`the service's chains (${chainId}), not on chain 1`),
      },
    ]);
    expect(res.headers.get('set-cookie')).toBeNull();
  });
  /** Deploys the factory of counterfactual contract wallets (CREATE2 by owner and salt). */
  async function deployFactory(): Promise<Address> {
    const { abi, bytecode } = await loadArtifact('OwnedContractWalletFactory');
    const deployer = createWalletClient({
      account: privateKeyToAccount(chain.deployment.shoppers[4]!.privateKey),
      transport: http(chain.chain.rpcUrl),
    });
    const hash = await deployer.deployContract({ abi, bytecode, chain: null });
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
    return getAddress(receipt.contractAddress!);
  }

  it('signs in a contract wallet not deployed yet by its ERC-6492 signature, and refuses another key’s', async () => {
    const { abi } = await loadArtifact('OwnedContractWalletFactory');
    const factory = await deployFactory();
    const owner = newAccount();
    const salt = keccak256(toHex('console sign-in'));
    const wallet = getAddress(
      (await chain.publicClient.readContract({
        address: factory,
        abi,
        functionName: 'walletAddress',
        args: [owner.address, salt],
      })) as Address,
    );
    await createApiKey(service.deps.db.kysely, { address: wallet });
    const deployment = encodeFunctionData({ abi, functionName: 'deploy', args: [owner.address, salt] });
    const wrapped = async (signer: ReturnType<typeof newAccount>) => {
      const signed = await signedMessage(service, signer, { address: wallet, chainId });
      const signature = serializeErc6492Signature({
        address: factory,
        data: deployment,
        signature: signed.signature as Hex,
      });
      return { message: signed.message, signature };
    };
    const refused = await postSignIn(service, await wrapped(newAccount()));
    expect(refused.status, refused.text).toBe(401);
    expect(refused.body.errors).toEqual([
      { path: 'signature', message: 'is not a signature of the message by its address' },
    ]);
    const res = await postSignIn(service, await wrapped(owner));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ wallet, role: 'owner' });
    expect(res.headers.get('set-cookie')).toMatch(/^console_session=/);
    // The check ran the deployment in a call only: nothing was deployed.
    expect(await chain.publicClient.getCode({ address: wallet })).toBeUndefined();
  });
});
