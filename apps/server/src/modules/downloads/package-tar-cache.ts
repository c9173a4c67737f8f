import type { PackageRow } from '../../db/rows';
import type { PackageTar } from './package-bytes';

/** How many packages' tars are kept, and about how much memory they may hold together. */
export interface PackageTarCacheLimits {
  readonly entries: number;
  readonly bytes: number;
}

const DEFAULT_LIMITS: PackageTarCacheLimits = { entries: 64, bytes: 64 * 1024 * 1024 };

/**
 * The laid-out tars of recently downloaded packages (their file rows, entry offsets and ASC MHL),
 * so the ranged requests of a download do not each load the package's file rows and lay out the
 * tar again: the download engine fetches a tar in many ranges, ten at a time, and a package of
 * ten thousand files costs tens of milliseconds of database and CPU to lay out.
 *
 * What may be reused: a package's stored files cannot change once it is sent (every path that
 * records a file checks, in the same transaction, that the package is still uploading, and a
 * package still uploading cannot be downloaded). The key holds everything of the package row
 * the bytes depend on (its id, name and send time, and the host the MHL names), and a cached tar
 * is only used for a grant of its exact size. Making a grant always reads the file rows afresh
 * and replaces the cached tar when its content tag differs, so even a change made by hand in
 * the database reaches the next download, never a mix of old offsets and new files.
 *
 * Bounded by entries and by an estimate of the bytes each tar holds (least recently used goes
 * first); a package too large for the whole budget is laid out per request, as before.
 * Concurrent requests for the same tar share one load.
 */
export class PackageTarCache {
  private readonly tars = new Map<string, Promise<CachedTar>>();
  private readonly sizes = new Map<string, number>();
  private heldBytes = 0;

  constructor(private readonly limits: PackageTarCacheLimits = DEFAULT_LIMITS) {}

  /**
   * The package's tar for a grant of `size` bytes: the cached one, else `load()` (whose result is
   * kept). A cached tar of another size (the package changed since, or the grant is older than
   * the change) is loaded again and replaced. `null` takes the cached tar whatever its size: the
   * sender's own copy has no grant to name one (its grant call lays the tar out afresh).
   */
  async tarFor(
    pkg: PackageRow,
    hostname: string,
    size: number | null,
    load: () => Promise<CachedTar>,
  ): Promise<CachedTar> {
    const key = tarKey(pkg, hostname);
    const hit = this.tars.get(key);
    if (hit) {
      const tar = await hit.catch(() => null);
      if (tar && (size === null || tar.tar.layout.size === size)) {
        this.touch(key, hit);
        return tar;
      }
    }
    return this.remember(key, load());
  }

  /** Keeps a tar just laid out from fresh rows (a grant was made), replacing an older one. */
  put(pkg: PackageRow, hostname: string, tar: CachedTar): void {
    const key = tarKey(pkg, hostname);
    void this.remember(key, Promise.resolve(tar));
  }

  /** How many tars are held (for tests and metrics). */
  get size(): number {
    return this.tars.size;
  }

  private remember(key: string, loading: Promise<CachedTar>): Promise<CachedTar> {
    this.forget(key);
    this.tars.set(key, loading);
    loading.then(
      (tar) => this.charge(key, loading, estimatedBytes(tar.tar)),
      () => {
        if (this.tars.get(key) === loading) this.tars.delete(key);
      },
    );
    return loading;
  }

  /** Most recently used last, so the first key is the one to drop. */
  private touch(key: string, entry: Promise<CachedTar>): void {
    this.tars.delete(key);
    this.tars.set(key, entry);
  }

  private charge(key: string, entry: Promise<CachedTar>, bytes: number): void {
    // Replaced or dropped while it loaded: nothing to account for.
    if (this.tars.get(key) !== entry || this.sizes.has(key)) return;
    if (bytes > this.limits.bytes) {
      this.tars.delete(key);
      return;
    }
    this.sizes.set(key, bytes);
    this.heldBytes += bytes;
    for (const oldest of this.tars.keys()) {
      if (this.heldBytes <= this.limits.bytes && this.tars.size <= this.limits.entries) break;
      if (oldest === key) continue;
      this.forget(oldest);
    }
  }

  private forget(key: string): void {
    this.tars.delete(key);
    this.heldBytes -= this.sizes.get(key) ?? 0;
    this.sizes.delete(key);
  }
}

/** A package's tar with its strong validator (what the ranged responses carry as ETag). */
export interface CachedTar {
  readonly tar: PackageTar;
  readonly etag: string;
}

/** Everything of the package row (and the server) the tar's bytes depend on besides its files. */
function tarKey(pkg: PackageRow, hostname: string): string {
  return [pkg.id, pkg.sentAt.getTime(), pkg.name, hostname].join('\0');
}

/**
 * About what a laid-out tar holds in memory: each file's row and its layout entry (objects of a
 * few hundred bytes with their strings), and the bytes the server writes (the MHL).
 */
function estimatedBytes(tar: PackageTar): number {
  let bytes = 0;
  // Each file's row, and its header once a request has built it (512 bytes, more with PAX).
  for (const file of tar.files) {
    bytes += 400 + 512 + 2 * (file.userPath.length + file.objectKey.length);
  }
  for (const member of tar.written) bytes += 200 + member.bytes.byteLength;
  return bytes + tar.mhl.hashList.byteLength + tar.mhl.chain.byteLength;
}
