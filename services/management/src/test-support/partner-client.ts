import { ManagementClient } from '@trackline/client';

/** packages/client's ManagementClient for a test service's partner, its self-signed certificate accepted. */
export function partnerClient(port: number, username: string, password: string): ManagementClient {
  return new ManagementClient({
    baseUrl: `https://127.0.0.1:${port}/v1`,
    username,
    password,
    rejectUnauthorized: false,
  });
}
