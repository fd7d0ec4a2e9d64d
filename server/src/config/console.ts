/** The console's sign-in: how long a session and a Sign-In with Ethereum nonce last. */
import { z } from 'zod';

export const consoleEnv = {
  CONSOLE_SESSION_HOURS: z.coerce.number().int().min(1).max(720).default(12),
  CONSOLE_NONCE_MINUTES: z.coerce.number().int().min(1).max(60).default(10),
};
type ConsoleEnv = z.infer<z.ZodObject<typeof consoleEnv>>;

export interface ConsoleConfig {
  /** A session's longest life (a message's expiration time may end it sooner). */
  sessionMs: number;
  /** How long a nonce handed out may be used. */
  nonceMs: number;
}

export function consoleConfig(c: ConsoleEnv): ConsoleConfig {
  return { sessionMs: c.CONSOLE_SESSION_HOURS * 3_600_000, nonceMs: c.CONSOLE_NONCE_MINUTES * 60_000 };
}
