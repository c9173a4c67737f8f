import { homedir } from 'node:os';
import path from 'node:path';
import {
  filesFingerprint,
  JsonFileResumeStore,
  sentFiles,
  type UploadLedger,
  type UploadPlan,
} from '@filerunner/transfer/node';

/**
 * The file holding the ledgers of this user's unfinished uploads to one server:
 * `$XDG_STATE_HOME/filerunner/uploads/<host>.json` (`~/.local/state` when unset). Not beside
 * the files: a camera card or a shared delivery folder may be read-only, and a ledger there
 * would travel with the next delivery. One file per server, because package slugs are only
 * unique on their own server.
 */
export function ledgerFileFor(serverUrl: string, env: NodeJS.ProcessEnv = process.env): string {
  const stateHome = env.XDG_STATE_HOME || path.join(homedir(), '.local', 'state');
  const host = new URL(serverUrl).host.replace(/[^A-Za-z0-9.-]/g, '_');
  return path.join(stateHome, 'filerunner', 'uploads', `${host}.json`);
}

/** What identifies "the same command again": the files, the contract and the package name. */
export interface UploadIdentity {
  plan: UploadPlan;
  contract: string;
  name: string;
}

/**
 * The unfinished upload of these files into a package of this name and contract, if a run was
 * interrupted; the latest when there are several.
 */
export async function findInterrupted(
  store: JsonFileResumeStore<UploadLedger>,
  identity: UploadIdentity,
): Promise<UploadLedger | undefined> {
  const matching = await interruptedOf(store, identity);
  return matching.at(-1);
}

/** Forgets the unfinished uploads of these files (`--no-resume` starts a new package instead). */
export async function forgetInterrupted(
  store: JsonFileResumeStore<UploadLedger>,
  identity: UploadIdentity,
): Promise<void> {
  for (const ledger of await interruptedOf(store, identity)) {
    await store.delete(ledger.package.slug);
  }
}

async function interruptedOf(
  store: JsonFileResumeStore<UploadLedger>,
  { plan, contract, name }: UploadIdentity,
): Promise<UploadLedger[]> {
  const fingerprint = filesFingerprint(sentFiles(plan));
  const found: UploadLedger[] = [];
  for (const slug of await store.keys()) {
    const ledger = await store.get(slug);
    if (
      ledger?.version === 1 &&
      !ledger.finalised &&
      ledger.fingerprint === fingerprint &&
      ledger.package.contract.slug === contract &&
      ledger.package.name === name
    ) {
      found.push(ledger);
    }
  }
  return found;
}

/**
 * The create calls of this user's packages whose ledger is not on record yet, by the files,
 * contract and name they are for: the idempotency key goes on disk before the call is made and
 * leaves once the package's ledger is written. A run stopped while the call was in flight (the
 * server may have made the package) sends the same key again, and the server answers that
 * package instead of making a second one, which would stay empty. The time of the first call
 * goes with the key: the access period starts then, so the call made again is the same request
 * (the server refuses a key sent again with another one).
 * Kept in `<host>.creating.json` beside the ledgers.
 */
export class PendingCreates {
  private readonly store: JsonFileResumeStore<{ idempotency_key: string; asked_at?: number }>;

  constructor(ledgerFile: string) {
    this.store = new JsonFileResumeStore(ledgerFile.replace(/\.json$/, '.creating.json'));
  }

  /**
   * The key and time of an earlier run's call for this package when `reuse`, else `fresh` and
   * now, on record first.
   */
  async keyFor(
    identity: UploadIdentity,
    reuse: boolean,
    fresh: string,
  ): Promise<{ key: string; askedAt: number }> {
    const id = creationOf(identity);
    const earlier = reuse ? await this.store.get(id) : undefined;
    // A record from before the time was kept has only its key.
    if (earlier) return { key: earlier.idempotency_key, askedAt: earlier.asked_at ?? Date.now() };
    const askedAt = Date.now();
    await this.store.put(id, { idempotency_key: fresh, asked_at: askedAt });
    return { key: fresh, askedAt };
  }

  /** The package's ledger is on record: its create call is settled. */
  settled(identity: UploadIdentity): Promise<void> {
    return this.store.delete(creationOf(identity));
  }
}

function creationOf({ plan, contract, name }: UploadIdentity): string {
  return JSON.stringify([contract, name, filesFingerprint(sentFiles(plan))]);
}
