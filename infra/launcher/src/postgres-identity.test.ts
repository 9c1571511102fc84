import { mkdirSync, mkdtempSync, rmSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  choosePostgresIdentity,
  firstClosedFolder,
  hostCommand,
  systemUser,
  type IdentityFacts,
} from './postgres-identity';

const POSTGRES = { name: 'postgres', uid: 101, gid: 104 };

function facts(overrides: Partial<IdentityFacts>): IdentityFacts {
  return {
    isRoot: true,
    clusterOwner: undefined,
    standIn: POSTGRES,
    userNamespacesWork: () => true,
    ...overrides,
  };
}

describe('who the embedded PostgreSQL runs as', () => {
  it('runs as the invoking user when that is not root', () => {
    expect(choosePostgresIdentity(facts({ isRoot: false }))).toEqual({ kind: 'invoking-user' });
  });

  it('runs root in a user namespace, standing in as the postgres user, when namespaces work', () => {
    expect(choosePostgresIdentity(facts({}))).toEqual({ kind: 'user-namespace', uid: 101, gid: 104 });
    expect(choosePostgresIdentity(facts({ clusterOwner: 0 }))).toEqual({
      kind: 'user-namespace',
      uid: 101,
      gid: 104,
    });
  });

  it('falls back to the postgres system user, saying why', () => {
    expect(choosePostgresIdentity(facts({ userNamespacesWork: () => false }))).toEqual({
      kind: 'postgres-user',
      why: expect.stringContaining('unshare --user') as string,
    });
    // A cluster an earlier start created as "postgres" stays that user's.
    expect(choosePostgresIdentity(facts({ clusterOwner: 101 }))).toMatchObject({ kind: 'postgres-user' });
    expect(choosePostgresIdentity(facts({ standIn: undefined }))).toMatchObject({ kind: 'postgres-user' });
  });

  it('wraps the host in unshare only for the user namespace', () => {
    expect(hostCommand({ kind: 'invoking-user' }, ['host.js'])).toEqual({
      command: process.execPath,
      args: ['host.js'],
    });
    expect(hostCommand({ kind: 'user-namespace', uid: 101, gid: 104 }, ['host.js'])).toEqual({
      command: 'unshare',
      args: ['--user', '--map-user=101', '--map-group=104', process.execPath, 'host.js'],
    });
  });

  it('reads users from a passwd file', () => {
    const passwd = 'root:x:0:0:root:/root:/bin/bash\npostgres:x:101:104::/var/lib/postgresql:/bin/bash\n';
    expect(systemUser('postgres', passwd)).toEqual(POSTGRES);
    expect(systemUser('nobody', passwd)).toBeUndefined();
  });
});

describe('firstClosedFolder', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'trackline-closed-'));
    chmodSync(folder, 0o755);
    mkdirSync(path.join(folder, 'private', 'inside'), { recursive: true });
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('names the private folder another user cannot enter', () => {
    chmodSync(path.join(folder, 'private'), 0o700);
    const stranger = { name: 'stranger', uid: 54_321, gid: 54_321 };
    expect(firstClosedFolder(path.join(folder, 'private', 'inside'), stranger)).toBe(
      path.join(folder, 'private'),
    );
    expect(firstClosedFolder(path.join(folder, 'private', 'inside'), undefined)).toBe(
      path.join(folder, 'private'),
    );
  });

  it('lets through folders open to others, and a folder not made yet', () => {
    const stranger = { name: 'stranger', uid: 54_321, gid: 54_321 };
    expect(firstClosedFolder(path.join(folder, 'private', 'inside'), stranger)).toBeUndefined();
    expect(firstClosedFolder(path.join(folder, 'not-yet', 'deeper'), stranger)).toBeUndefined();
  });
});
