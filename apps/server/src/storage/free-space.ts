import { statfs } from 'node:fs/promises';
import path from 'node:path';

/**
 * STORAGE_FREE_FLOOR as the operator wrote it: a byte count, a share of the volume, or nothing
 * (the default: the smaller of 1 GiB and 5 % of the volume).
 */
export type FreeFloorSetting =
  | { readonly kind: 'default' }
  | { readonly kind: 'bytes'; readonly bytes: number }
  | { readonly kind: 'share'; readonly share: number };

const GIB = 1024 ** 3;
/** The default keeps this much of a large volume free... */
const DEFAULT_FLOOR_BYTES = GIB;
/** ...and this share of a small one, so a small disk is not refused outright. */
const DEFAULT_FLOOR_SHARE = 0.05;

const UNITS: Readonly<Record<string, number>> = {
  '': 1,
  b: 1,
  k: 1000,
  kb: 1000,
  kib: 1024,
  m: 1000 ** 2,
  mb: 1000 ** 2,
  mib: 1024 ** 2,
  g: 1000 ** 3,
  gb: 1000 ** 3,
  gib: GIB,
  t: 1000 ** 4,
  tb: 1000 ** 4,
  tib: 1024 ** 4,
};

/**
 * Reads STORAGE_FREE_FLOOR: `512MiB`, `2GB`, `1073741824` (bytes), `10%` (of the volume), or an
 * empty value for the default. Answers null for anything else, so the config can name the
 * variable in its refusal.
 */
export function parseFreeFloor(text: string | undefined): FreeFloorSetting | null {
  const value = (text ?? '').trim();
  if (value === '') return { kind: 'default' };
  const share = /^(\d+(?:\.\d+)?)\s*%$/.exec(value);
  if (share) {
    const percent = Number(share[1]);
    return percent <= 100 ? { kind: 'share', share: percent / 100 } : null;
  }
  const size = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(value);
  const unit = size ? UNITS[size[2]!.toLowerCase()] : undefined;
  if (!size || unit === undefined) return null;
  return { kind: 'bytes', bytes: Math.round(Number(size[1]) * unit) };
}

/** The floor in bytes on a volume of `volumeBytes`. */
export function floorBytes(setting: FreeFloorSetting, volumeBytes: number): number {
  switch (setting.kind) {
    case 'bytes':
      return setting.bytes;
    case 'share':
      return Math.ceil(volumeBytes * setting.share);
    case 'default':
      return Math.min(DEFAULT_FLOOR_BYTES, Math.ceil(volumeBytes * DEFAULT_FLOOR_SHARE));
  }
}

/** What the volume holding the data folder has, and what may still be written to it. */
export interface VolumeSpace {
  /** Bytes an unprivileged writer may still use (statfs' bavail). */
  readonly freeBytes: number;
  readonly volumeBytes: number;
  readonly floorBytes: number;
  /** Bytes promised to writes under way, not yet on disk. */
  readonly reservedBytes: number;
}

/** Whether a write of some bytes may begin; when it may, `release` must be called once it ends. */
export type SpaceAdmission =
  | { readonly admitted: true; readonly release: () => void }
  | { readonly admitted: false; readonly space: VolumeSpace };

/**
 * Keeps the free space of the data folder's volume above a floor. Files and the embedded
 * database share that volume: once new objects take the last bytes, PostgreSQL cannot write its
 * WAL and stops, login and the sweeper that would free space stop with it. So the store refuses
 * new objects while the volume is under the floor, and the database keeps the floor for itself.
 *
 * Writes under way are counted by the length they announced, so many uploads starting together
 * cannot all pass a check that each alone would. Free space is read from the file system on every
 * check (statfs is cheap), so space freed by anyone (the sweeper, an operator) counts at once.
 */
export class FreeSpace {
  private reserved = 0;
  /** The size of the last write refused, while a write of that size would still be refused. */
  private refusedBytes: number | null = null;

  constructor(
    /** A folder on the volume to watch: the data folder. */
    private readonly folder: string,
    private readonly setting: FreeFloorSetting,
  ) {}

  async measure(): Promise<VolumeSpace> {
    const stats = await statfsOfNearest(this.folder);
    const volumeBytes = stats.blocks * stats.bsize;
    return {
      freeBytes: stats.bavail * stats.bsize,
      volumeBytes,
      floorBytes: floorBytes(this.setting, volumeBytes),
      reservedBytes: this.reserved,
    };
  }

  /**
   * Whether new files are being refused: the volume is under its floor, or the last write refused
   * for space would still be refused now (the volume sits just above the floor, too close for the
   * files people send). The operator's signal to free space.
   */
  async refusing(): Promise<{ refusing: boolean; space: VolumeSpace }> {
    const space = await this.measure();
    const room = space.freeBytes - space.reservedBytes - space.floorBytes;
    if (this.refusedBytes !== null && room >= this.refusedBytes) this.refusedBytes = null;
    return { refusing: room < 0 || this.refusedBytes !== null, space };
  }

  /**
   * Admits a write of `bytes` (0 when its length is unknown) if the volume stays at or above the
   * floor once it and the writes under way have landed.
   */
  async admit(bytes: number): Promise<SpaceAdmission> {
    const space = await this.measure();
    if (space.freeBytes - space.reservedBytes - bytes < space.floorBytes) {
      this.refusedBytes = bytes;
      return { admitted: false, space };
    }
    if (this.refusedBytes !== null && bytes >= this.refusedBytes) this.refusedBytes = null;
    this.reserved += bytes;
    let released = false;
    return {
      admitted: true,
      release: () => {
        if (released) return;
        released = true;
        this.reserved -= bytes;
      },
    };
  }
}

/** statfs of the folder, or of the nearest folder above it that exists (before the first start). */
async function statfsOfNearest(folder: string) {
  for (let dir = folder; ; dir = path.dirname(dir)) {
    try {
      return await statfs(dir);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || path.dirname(dir) === dir) throw error;
    }
  }
}
