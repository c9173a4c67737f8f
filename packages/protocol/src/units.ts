// Sizes, rates and durations for people, the same in the web app, the mails and the command
// line. Sizes are decimal, as disks and lines are sold (1 MB is 1,000,000 bytes), and rates in
// bits per second (Mb/s), the unit a person knows their connection by.

const SIZE_UNITS = ['KB', 'MB', 'GB', 'TB', 'PB'];
const RATE_UNITS = ['kb/s', 'Mb/s', 'Gb/s', 'Tb/s'];

/** Two or three significant figures: '1.5', '15', '150'; never '1.0'. */
function figure(value: number): string {
  return value >= 100 ? String(Math.round(value)) : String(Number(value.toFixed(1)));
}

/** Scales `value` by thousands through `units` (the first unit is a thousand). */
function scaled(value: number, units: readonly string[]): string {
  let amount = value / 1000;
  let unit = 0;
  // Rounded first, so 999,960 bytes reads '1 MB', not '1000 KB'.
  while (Number(figure(amount)) >= 1000 && unit < units.length - 1) {
    amount /= 1000;
    unit++;
  }
  return `${figure(amount)} ${units[unit]}`;
}

/** A size in decimal units: '0 bytes', '999 bytes', '1.5 MB', '48 GB'. */
export function formatSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  return scaled(bytes, SIZE_UNITS);
}

const SIZE_FACTORS: Readonly<Record<string, number>> = {
  b: 1,
  byte: 1,
  bytes: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  pb: 1e15,
  kib: 2 ** 10,
  mib: 2 ** 20,
  gib: 2 ** 30,
  tib: 2 ** 40,
  pib: 2 ** 50,
};

/**
 * A size as a person writes it, in bytes: '1000', '500 MB', '1.5GB', '10 GiB' (decimal units as
 * `formatSize` tells them, binary ones by their own names); null when it is not a size.
 */
export function parseSize(text: string): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  if (!match) return null;
  const factor = match[2] ? SIZE_FACTORS[match[2].toLowerCase()] : 1;
  if (factor === undefined) return null;
  const bytes = Math.round(Number(match[1]) * factor);
  return Number.isSafeInteger(bytes) ? bytes : null;
}

/** A transfer rate in bits per second: '0 b/s', '800 kb/s', '94 Mb/s', '1.2 Gb/s'. */
export function formatRate(bytesPerSecond: number): string {
  const bits = Math.max(0, bytesPerSecond) * 8;
  if (bits < 1000) return `${Math.round(bits)} b/s`;
  return scaled(bits, RATE_UNITS);
}

/** Time left, to the precision a person cares about: '45 s', '3 min 5 s', '2 h 10 min', '3 d 4 h'. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  if (s < 60) return `${s} s`;
  const minutes = Math.floor(s / 60);
  if (minutes < 10) return s % 60 === 0 ? `${minutes} min` : `${minutes} min ${s % 60} s`;
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days} d` : `${days} d ${hours % 24} h`;
}
