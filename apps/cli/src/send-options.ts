import { packageLimits } from '@filerunner/protocol';
import { CliFailure } from './failures';
import { parseAddresses } from './recipients';

/** What `filerunner send` was asked to do, checked. */
export interface SendOptions {
  /** The FileRunner address (`--url` or FILERUNNER_URL). */
  serverUrl: string;
  apiKey: string;
  contract: string;
  /** Recipients' addresses, lowercased, without repeats. */
  to: string[];
  name: string;
  message: string;
  pin: boolean;
  /** The access period: from now for this many days. */
  days: number;
  paths: string[];
  /** Continue an interrupted run of the same files (the default), or start a new package. */
  resume: boolean;
  quiet: boolean;
}

/** The options as commander hands them over (env fallbacks already applied). */
export interface RawSendOptions {
  url?: string;
  apiKey?: string;
  contract?: string;
  to?: string[];
  name?: string;
  message?: string;
  pin?: boolean;
  days: string;
  resume: boolean;
  quiet?: boolean;
}

const bad = (message: string) => new CliFailure('badArguments', message);

/** Checks the arguments before anything is read or sent; a problem throws with exit code 2. */
export function sendOptionsOf(paths: string[], raw: RawSendOptions): SendOptions {
  const serverUrl = raw.url?.trim();
  if (!serverUrl) throw bad('The server is missing: give --url or set FILERUNNER_URL.');
  let url: URL;
  try {
    url = new URL(serverUrl);
  } catch {
    throw bad(`--url "${serverUrl}" is not a URL (e.g. https://files.example.com).`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw bad(`--url must start with https:// or http://, not ${url.protocol}`);
  }
  const apiKey = raw.apiKey?.trim();
  if (!apiKey) throw bad('The API key is missing: give --api-key or set FILERUNNER_API_KEY.');
  const contract = raw.contract?.trim();
  if (!contract) throw bad('The contract is missing: give --contract with its slug.');
  let to: string[];
  try {
    to = parseAddresses(raw.to ?? []);
  } catch (error) {
    throw bad(`--to: ${(error as Error).message}.`);
  }
  if (to.length === 0) throw bad('Nobody to send to: give --to with one or more addresses.');
  const name = raw.name?.trim();
  if (!name) throw bad('The package name is missing: give --name.');
  if (name.length > packageLimits.nameMax) {
    throw bad(`--name can be at most ${packageLimits.nameMax} characters.`);
  }
  const days = Number(raw.days);
  const maxDays = packageLimits.accessPeriodMaxDays;
  if (!Number.isFinite(days) || days <= 0 || days > maxDays) {
    throw bad(`--days must be a number of days above 0 and at most ${maxDays}.`);
  }
  if (paths.length === 0) throw bad('No files given: name the files and folders to send.');
  return {
    serverUrl: serverUrl.replace(/\/+$/, ''),
    apiKey,
    contract,
    to,
    name,
    message: raw.message ?? '',
    pin: raw.pin === true,
    days,
    paths,
    resume: raw.resume,
    quiet: raw.quiet === true,
  };
}
