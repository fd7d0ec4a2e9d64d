/** Why a wallet step failed: the element's own failures, and any failure sorted into what the shopper can do. */
import type { Holding, WalletErrorKind } from './types.ts';

/** Wrong-network failures the wallet reports while switching or sending. */
export class WrongChainError extends Error {
  override name = 'WrongChainError';
}

/** Not enough of any accepted token to pay; `holdings` says what the wallet has of each. */
export class InsufficientBalanceError extends Error {
  override name = 'InsufficientBalanceError';
  readonly holdings: Holding[];
  constructor(message: string, holdings: Holding[]) {
    super(message);
    this.holdings = holdings;
  }
}

/** None of the chain's own coin to pay the network fee with. */
export class NoFeeFundsError extends Error {
  override name = 'NoFeeFundsError';
}

// Failures that mean the wallet is on another network, and that the chain's RPC did not answer.
const wrongChainErrors = new Set([
  'WrongChainError',
  'ChainMismatchError',
  'ConnectorChainMismatchError',
  'SwitchChainNotSupportedError',
]);
const rpcErrors = new Set(['HttpRequestError', 'TimeoutError', 'RpcRequestError', 'WebSocketRequestError']);

/** Sorts a wallet or RPC failure into what the shopper can do about it. */
export function classifyWalletError(error: unknown): WalletErrorKind {
  for (const e of causes(error)) {
    if (e.code === 4001 || e.name === 'UserRejectedRequestError') return 'rejected';
    if (e.name === 'InsufficientBalanceError') return 'insufficient';
    // viem's InsufficientFundsError is about the chain's coin: the fee (or value) exceeds it.
    if (e.name === 'NoFeeFundsError' || e.name === 'InsufficientFundsError') return 'fee_funds';
    if (wrongChainErrors.has(e.name ?? '') || e.code === 4902) return 'wrong_chain';
    if (rpcErrors.has(e.name ?? '') || e.code === -32603 || e.code === -32005) return 'rpc';
  }
  return 'unknown';
}

type ErrorLike = { name?: string; code?: number; message?: string; cause?: unknown };

/** `error` and the causes under it, each once. */
export function* causes(error: unknown): Generator<ErrorLike> {
  const seen = new Set<unknown>();
  for (let e = error as ErrorLike | undefined; e && !seen.has(e); e = e.cause as typeof e) {
    seen.add(e);
    yield e;
  }
}
