import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@trackline/test-harness';

// The built entry point as the operator runs it (`pnpm trackline`): the exit code and streams are
// what scripts around the CLI rely on. `pnpm test` builds before running jest.
const CLI = join(__dirname, '..', '..', 'dist', 'cli.js');

function run(argv: string[], databaseUrl: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...argv],
      { env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl } },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr });
      },
    );
  });
}

describe('dist/cli.js', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing; run \`pnpm build\` first`);
    database = await createTestDatabase();
  });

  afterAll(async () => {
    await database?.drop();
  });

  it('exits 0 with the result on stdout', async () => {
    const result = await run(['partner:list'], database.url);
    expect(result).toEqual({
      code: 0,
      stdout: 'No partners yet; create one with partner:create.\n',
      stderr: '',
    });
  });

  it('exits 1 with one line on stderr for bad input', async () => {
    const result = await run(
      [
        'partner:create',
        '--name',
        'acme',
        '--username',
        'u',
        '--password',
        'correct horse',
        '--signing-secret',
        'short',
      ],
      database.url,
    );
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: signing-secret: must be at least 16 characters\n',
    });
  });
});
