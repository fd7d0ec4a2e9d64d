/** What the console's browser tests share: a service whose PUBLIC_BASE_URL is its own address, and signing in. */
import { createServer } from 'node:net';
import type { Page } from 'playwright-core';

/**
 * PORT and PUBLIC_BASE_URL for a service the browser signs in to: the sign-in message must name the
 * service's public address, so the test picks a free port first and starts the service on it.
 */
export async function consoleEnv(): Promise<Record<string, string>> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return { PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}` };
}

/** Signs in on the open console page with its test wallet, and waits until the console says who is in. */
export async function signIn(page: Page, wallet: string): Promise<void> {
  await page.getByRole('button', { name: 'Sign in with wallet' }).click();
  await page.getByText(`Signed in as ${wallet}`).waitFor();
}
