import type {
  DeliveryReceipt,
  ReceiptChallenge,
  ReceiptRange,
  ReceiptReport,
  ReceiptRequest,
} from '@filerunner/protocol';
import { planDownload } from './plan';
import type { DownloadDescriptor, DownloadOutcome, SinkMode, SinkTarget } from './ports';

/*
 * A delivery receipt rests on proof that the recipient holds the package: the server sends a
 * fresh nonce and a sample of ranges across the package's files, the engine reads each back from
 * what it wrote and answers SHA-256(nonce || bytes). Only an engine that wrote the files (into a
 * folder, or the `.tar` it kept) can answer; the browser's own download hands the bytes to the
 * browser, cannot read them back, and earns no receipt.
 */

/** The server's two receipt calls, as the caller's API makes them (with a link's key or not). */
export interface ReceiptCalls {
  challenge(): Promise<ReceiptChallenge>;
  issue(request: ReceiptRequest): Promise<DeliveryReceipt>;
}

/**
 * Reads back what the download engine wrote, to answer a challenge: files on disk in Node, the
 * picked folder's file handles in a browser. `target` is the sink's (a member when unpacked, the
 * `.tar` when kept whole); the answer holds fewer bytes than asked only when the file is shorter.
 */
export interface WrittenBytes {
  read(target: SinkTarget, offset: number, length: number): Promise<Uint8Array>;
}

/** SHA-256 of the parts one after the other: node:crypto, or the browser's SubtleCrypto. */
export type Sha256 = (parts: readonly Uint8Array[]) => Promise<Uint8Array>;

/** How an engine that wrote a package proves it, to earn its receipt. */
export interface ReceiptProof {
  readonly calls: ReceiptCalls;
  /** The download the engine ran, and how its bytes landed. */
  readonly descriptor: DownloadDescriptor;
  readonly mode: SinkMode;
  readonly written: WrittenBytes;
  readonly sha256: Sha256;
}

/** A receipt the engine could not ask for: it could not read back what a challenge named. */
export class ReceiptProofError extends Error {
  override readonly name = 'ReceiptProofError';
}

/** What the engine found when it checked the package's files, as a receipt request reports it. */
export function receiptReport(outcome: DownloadOutcome): ReceiptReport {
  return {
    verified: outcome.verifiedFiles,
    unverified: [...outcome.unverifiedFiles],
    failed: outcome.failedFiles.map((f) => f.path),
  };
}

/**
 * Asks the server for a signed receipt of a package download just finished: a challenge, the
 * answers read back from what was written, and the engine's own check. A challenge that expired
 * or was replaced meanwhile (409, another tab asked one) is asked once more.
 * @throws ReceiptProofError when a sampled range cannot be read back (a file failed and was
 *   removed, or was changed or moved since); the call's own error when the server refuses.
 */
export async function requestReceipt(
  proof: ReceiptProof,
  outcome: DownloadOutcome,
): Promise<DeliveryReceipt> {
  const report = receiptReport(outcome);
  for (let attempt = 1; ; attempt++) {
    const challenge = await proof.calls.challenge();
    const answers = await answersTo(proof, challenge);
    try {
      return await proof.calls.issue({ challenge: challenge.challenge, answers, ...report });
    } catch (error) {
      // An ApiError, or the same call's failure as a store carries it: both have the status.
      if ((error as { status?: unknown } | null)?.status !== 409 || attempt === 2) throw error;
    }
  }
}

/** Each range's answer, in the challenge's order, as the lowercase hex the server compares. */
async function answersTo(proof: ReceiptProof, challenge: ReceiptChallenge): Promise<string[]> {
  const plan = planDownload(proof.descriptor, proof.mode);
  const members = proof.descriptor.tar?.files ?? [];
  const indexOf = new Map(members.map((m, i) => [m.path, i]));
  const nonce = bytesOfHex(challenge.nonce);
  const answers: string[] = [];
  for (const range of challenge.ranges) {
    const member = indexOf.get(range.path);
    if (member === undefined) throw new ReceiptProofError(`${range.path} is not in this package`);
    const { target, offset } = placeOf(plan, member, range);
    const bytes = await proof.written.read(target, offset, range.length).catch((error: unknown) => {
      throw new ReceiptProofError(`${range.path} could not be read back`, { cause: error });
    });
    if (bytes.byteLength !== range.length) {
      throw new ReceiptProofError(`${range.path} is shorter than it was sent`);
    }
    answers.push(hexOf(await proof.sha256([nonce, bytes])));
  }
  return answers;
}

/** Where a range of member `member` was written: its own file, or its place in the `.tar`. */
function placeOf(
  plan: ReturnType<typeof planDownload>,
  member: number,
  range: ReceiptRange,
): { target: SinkTarget; offset: number } {
  if (plan.mode === 'unpack') return { target: plan.targets[member]!, offset: range.offset };
  return {
    target: plan.targets[0]!,
    offset: plan.layout!.entries[member]!.dataOffset + range.offset,
  };
}

function bytesOfHex(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

function hexOf(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
