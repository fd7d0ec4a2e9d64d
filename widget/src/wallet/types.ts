/** Shapes shared by the element and its lazily loaded wallet module (types only: nothing is bundled). */
import type { Config } from '@wagmi/core';
import type { CheckoutView } from '../api.ts';
import type { DiscoveredWallet } from '../controllers/wallet-discovery.ts';

/**
 * What a wallet pays and where: the chain, the token the receiver gets, the tokens that may pay it, and
 * the receiving address. A checkout's view is one; a refund's payment is another (receiver: the customer).
 */
export type PaymentTarget = Pick<
  CheckoutView,
  | 'chain_id'
  | 'blockchain'
  | 'network'
  | 'is_test'
  | 'rpc_url'
  | 'token'
  | 'payment_tokens'
  | 'swappable'
  | 'router_address'
  | 'receiving_address'
>;

/** The chain a wallet is connected on. */
export type ChainTarget = Pick<PaymentTarget, 'chain_id' | 'blockchain' | 'network' | 'is_test' | 'rpc_url'>;

/** How the shopper pays: the product token directly, or another token swapped on the router. */
export interface PaymentPlan {
  kind: 'direct' | 'swap';
  /** The token leaving the shopper's wallet. */
  payToken: CheckoutView['token'];
  /** Exact amount the merchant receives, in the product token (decimal string). */
  amount: string;
  /** For swaps: the quoted spend and its ceiling with 0.5 % slippage (decimal strings of `payToken`). */
  spend?: string;
  spendMax?: string;
  /** For swaps: the router must be allowed to spend `spendMax` first. */
  needsApproval: boolean;
  /** What the wallet holds of `payToken` (decimal string). */
  balance: string;
  /** Whether that balance pays it: `amount` for a direct payment, `spendMax` for a swap. */
  covers: boolean;
}

/**
 * What the service asks the wallet to send (a checkout session answers it as it is): the exact amount the
 * receiver gets, in the product token; the direct payment's transaction as the service built it (null when
 * it built none: a swap session); the 32-byte reference a swap's router call carries after its arguments;
 * and the session's own deposit address, where a swap then sends its output.
 */
export interface PaymentOrder {
  /** Decimal string of the product token. */
  expected_token_amount: string;
  transaction: { to: string; data: string } | null;
  /** `0x` and 64 hex digits. */
  reference?: string;
  /** Where the session is paid instead of the receiving address, when it has an address of its own. */
  deposit_address?: string | null;
}

/** What a wallet holds of one accepted stablecoin (decimal string), for a shopper who must top up. */
export interface Holding {
  symbol: string;
  balance: string;
}

/** Why a wallet step failed, in the words the element shows. */
export type WalletErrorKind = 'rejected' | 'wrong_chain' | 'insufficient' | 'fee_funds' | 'rpc' | 'unknown';

/** A connected wallet on the product's chain. */
export interface WalletFlow {
  address: string;
  /**
   * The ways to pay an exact amount of the product token: each accepted stablecoin the wallet holds, with
   * its balance and, for another token, the swap quote. The product token comes first, then the others in
   * the checkout's order; fails when none covers the amount (with what the wallet holds of each accepted
   * stablecoin, `holdings`) or the wallet has nothing for the fee.
   */
  options(amount: string): Promise<PaymentPlan[]>;
  /**
   * Sends `order` the way `plan` pays it (the service's transaction for a direct payment, a swap for the
   * exact amount carrying the reference); `onStep` says when the wallet is asked to approve, then to pay.
   * Resolves to the hash.
   */
  pay(plan: PaymentPlan, order: PaymentOrder, onStep: (step: 'approve' | 'pay') => void): Promise<string>;
}

/** What the element hands to the wallet module. */
export interface WalletFlowOptions {
  view: PaymentTarget;
  wallet: DiscoveredWallet;
  /** A dapp's own wagmi config, shared when it knows the product's chain. */
  config?: Config | undefined;
}

/** The lazily loaded module's surface. */
export interface WalletModule {
  startWalletFlow(options: WalletFlowOptions): Promise<WalletFlow>;
  classifyWalletError(error: unknown): WalletErrorKind;
}
