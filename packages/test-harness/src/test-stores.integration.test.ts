import { freePort } from './free-port';
import { startTestStores, stopTestStores } from './test-stores';

// startTestStores runs in jest's main process in real use; here it runs in a worker, whose
// harness state starts empty, against the stores the global setup already checked.
describe('startTestStores', () => {
  const envBefore = { ...process.env };
  afterEach(async () => {
    await stopTestStores();
    process.env = { ...envBefore };
  });

  it('accepts the stores the environment names and is a no-op when called again', async () => {
    await startTestStores();
    // A second project's global setup must neither re-check nor start anything.
    process.env.TEST_DATABASE_URL = `postgres://postgres@127.0.0.1:${await freePort()}/postgres`;
    await expect(startTestStores()).resolves.toBeUndefined();
  });

  it('fails with one message naming every store that does not answer and how to provide them', async () => {
    process.env.TEST_DATABASE_URL = `postgres://postgres:secret@127.0.0.1:${await freePort()}/postgres`;
    process.env.TEST_REDIS_URL = `redis://127.0.0.1:${await freePort()}`;

    const failure = startTestStores();

    await expect(failure).rejects.toThrow(
      /PostgreSQL at postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/postgres does not answer/,
    );
    await expect(failure).rejects.toThrow(/Redis at redis:\/\/127\.0\.0\.1:\d+ does not answer/);
    await expect(failure).rejects.toThrow(
      /Set TEST_DATABASE_URL and TEST_REDIS_URL .* or install and start Docker/,
    );
    await expect(failure).rejects.not.toThrow(/secret/);
  });

  it('without the variables and without a container runtime, says to set them or install Docker', async () => {
    delete process.env.TEST_DATABASE_URL;
    delete process.env.TEST_REDIS_URL;
    // testcontainers finds no runtime at a socket that does not exist, whether or not Docker runs here.
    process.env.DOCKER_HOST = 'unix:///nonexistent/docker.sock';

    await expect(startTestStores()).rejects.toThrow(
      /^Integration tests need PostgreSQL and Redis\. Set TEST_DATABASE_URL and TEST_REDIS_URL .*install and start Docker/,
    );
  });
});
