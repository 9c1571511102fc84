import { Agent } from 'node:https';
import { digestAuthorization, parseChallenges, type Challenge } from '../src/test-support/digest-client';
import { rawRequest, type HttpResult } from '../src/test-support/https-request';

/**
 * A partner on one keep-alive HTTPS connection, answering the digest challenge once and then
 * counting nc up, as `curl --digest` does within a session.
 */
export class BenchDigestClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1, rejectUnauthorized: false });
  private challenge: Challenge | undefined;
  private nc = 0;

  constructor(
    private readonly port: number,
    private readonly username: string,
    private readonly password: string,
  ) {}

  async get(path: string): Promise<HttpResult> {
    if (this.challenge === undefined) await this.fetchChallenge(path);
    let result = await this.send(path);
    if (result.status === 401) {
      await this.fetchChallenge(path);
      result = await this.send(path);
    }
    return result;
  }

  close(): void {
    this.agent.destroy();
  }

  private async fetchChallenge(path: string): Promise<void> {
    const first = await rawRequest({ port: this.port, method: 'GET', path, agent: this.agent });
    const challenge = parseChallenges(first.headers).find((candidate) => candidate.algorithm === 'MD5');
    if (challenge === undefined) throw new Error(`no digest challenge (status ${first.status})`);
    this.challenge = challenge;
    this.nc = 0;
  }

  private send(path: string): Promise<HttpResult> {
    this.nc += 1;
    const authorization = digestAuthorization({
      username: this.username,
      password: this.password,
      challenge: this.challenge!,
      method: 'GET',
      uri: path,
      nc: this.nc,
    });
    return rawRequest({
      port: this.port,
      method: 'GET',
      path,
      headers: { Authorization: authorization, Accept: 'application/json' },
      agent: this.agent,
    });
  }
}

/** The switch: POST /telephony/cdrs with the bearer token, one keep-alive connection per worker. */
export class BenchSwitchClient {
  // Idle connections are closed after 4 s, before the service's keep-alive timeout (5 s by default)
  // closes them: a call sent on a connection the service is closing at that moment fails with a
  // reset, which a switch would retry but the bench counts as a failed run.
  private readonly agent = new Agent({ keepAlive: true, timeout: 4_000, rejectUnauthorized: false });

  constructor(
    private readonly port: number,
    private readonly token: string,
  ) {}

  /** A batch (an array) or one record (an object), as the switch sends either. */
  postCdrs(records: unknown): Promise<HttpResult> {
    return rawRequest({
      port: this.port,
      method: 'POST',
      path: '/telephony/cdrs',
      headers: { Authorization: `Bearer ${this.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(records),
      agent: this.agent,
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
