import type { BulkResponse, FormPostBatchGrant } from '@filerunner/protocol';
import type { ByteSource } from '../ports';
import type { FormPostBatch } from './plan';

/** The grants for objects under the package's prefix: a PUT per slab and segment, a HEAD over all. */
export type PutGrant = BulkResponse['tempurl_data'];

/** One file of a FormPost batch: the form part's filename and where storage keeps it. */
export interface FormPostObject {
  source: ByteSource;
  /** The server's cleaned object name; the FormPost stores the part under prefix + this. */
  clean_filename: string;
  /** The object key to report in `updatefiles`. */
  object_path: string;
}

/** The grant the bulk answer gave for `batch`. */
export function grantForBatch(bulk: BulkResponse, batch: FormPostBatch): FormPostBatchGrant {
  const grant = bulk.bulk_data.file_data.find((g) => g.batch_name === batch.batch_name);
  if (!grant) throw new Error(`the bulk answer has no grant for ${batch.batch_name}`);
  return grant;
}

/**
 * Maps the server's `cleaned_files` onto a planned batch, file by file.
 * @throws Error when the grant names no object for one of the batch's files (a grant for
 *   another plan): sending would store files nobody can report.
 */
export function formPostObjects(batch: FormPostBatch, grant: FormPostBatchGrant): FormPostObject[] {
  const cleaned = new Map(grant.cleaned_files.map((c) => [c.path, c.clean_filename]));
  return batch.files.map((source) => {
    const clean = cleaned.get(source.path);
    if (clean === undefined) {
      throw new Error(`${batch.batch_name} has no object name for one of its files`);
    }
    return { source, clean_filename: clean, object_path: `${grant.object_prefix}${clean}` };
  });
}

/**
 * Where the `turn`-th FormPost of a batch goes: the grant's URL and its alternatives in turn,
 * so batches spread over every storage host (the signature covers only the path).
 */
export function formPostUrl(grant: FormPostBatchGrant, turn: number): string {
  return inTurn([grant.url, ...grant.alternative_urls], turn);
}

/**
 * The signed PUT URL of an object of the plan (a slab or a segment, named relative to the
 * package prefix), on the `turn`-th storage host of the endpoint and its alternatives; null when
 * the grants hold none for it (the server signs a PUT only for each object the plan listed).
 * Plan names hold only URL-safe characters, so they go into the path as they are.
 */
export function putUrl(grant: PutGrant, objectName: string, turn: number): string | null {
  const signed = grant.objects.find((o) => o.name === objectName);
  return signed ? onHost(grant, objectName, signed.temp_url, turn) : null;
}

/**
 * A URL to HEAD an object of the plan with: the grant over the whole prefix, which lets the
 * engine check what an earlier run stored (and on Swift does nothing else).
 */
export function headUrl(grant: PutGrant, objectName: string, turn: number): string {
  return onHost(grant, objectName, grant.temp_url, turn);
}

/** The object's URL on the `turn`-th host, carrying the query of `signedUrl`. */
function onHost(grant: PutGrant, objectName: string, signedUrl: string, turn: number): string {
  const host = inTurn([grant.swift_endpoint, ...grant.alternative_urls], turn);
  const query = signedUrl.includes('?') ? signedUrl.slice(signedUrl.indexOf('?')) : '';
  return `${host}${grant.swift_path}${objectName}${query}`;
}

/** An object of the plan as `updateslabfile` and `slo` name it: `/container/prefix + name`. */
export function storedObjectPath(grant: PutGrant, objectName: string): string {
  return `/${grant.container}/${grant.object_prefix}${objectName}`;
}

function inTurn(hosts: readonly string[], turn: number): string {
  const index = ((Math.trunc(turn) % hosts.length) + hosts.length) % hosts.length;
  return hosts[index]!;
}
