/**
 * What the service tells the console in its HTML shell (server/src/routes/consolePage.ts): the module script
 * of the element's refund payment (`<refund-pay>`, the one pay path of a refund) and each chain's public RPC.
 */
export interface ConsoleConfig {
  refundPayScript?: string;
  rpcUrls: Record<string, string>;
}

/** The shell's configuration, read once. */
export function consoleConfig(): ConsoleConfig {
  const text = document.querySelector('meta[name="console-config"]')?.getAttribute('content');
  try {
    return { rpcUrls: {}, ...(text ? (JSON.parse(text) as Partial<ConsoleConfig>) : {}) };
  } catch {
    return { rpcUrls: {} };
  }
}
