/** The KYC provider behind `POST /users/:id/kycs`: opens a verification session and names its URL. */
import { randomBytes } from 'node:crypto';

/** A verification session the user opens in a browser. */
interface KycProviderSession {
  /** The provider's reference of the session (the sandbox page's URL token). */
  token: string;
  url: string;
}

/**
 * A KYC vendor. Its decisions reach the service as `kycOnboarding` signals: the sandbox's from its
 * routes, a real vendor's from its callback handler.
 */
export interface KycProvider {
  name: string;
  createSession(user: { id: string; email: string }): Promise<KycProviderSession>;
}

/** The built-in sandbox provider: a hosted page at `/sandbox/kyc/:token` on this service. */
export function sandboxKycProvider(publicBaseUrl: string): KycProvider {
  return {
    name: 'sandbox',
    async createSession() {
      const token = randomBytes(24).toString('base64url');
      return { token, url: `${publicBaseUrl}/sandbox/kyc/${token}` };
    },
  };
}
