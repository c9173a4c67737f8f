import { sendMessages } from '@filerunner/protocol';
import type { ContractRow, PackageRow } from '../../db/rows';
import type { AppContext } from '../../context';
import { ApiError } from '../../http/errors';
import { notifyContractWatchers } from '../activity/package-notifications';
import { keyAndMailRecipient } from './recipient-mail';
import { announceWhenOpen } from './package-received';
import { findUserById } from '../accounts/accounts.repository';
import { PackageDeclaration } from './declared-objects';
import { reconcileStoredObjects } from './stored-objects';
import {
  currentRecipientsOf,
  declaredFilesOf,
  fileStatesOf,
  markSent,
  packageStatusForUpdate,
} from './packages.repository';
import { senderName as nameOfSender } from '../accounts/display-name';

export interface FinaliseResult {
  status: 'complete' | 'force_completed';
  /** User paths of the files that never arrived (only when forced). */
  failedFiles: string[];
}

/**
 * Sends the package: checks every intended file is stored, holds its storage to the declaration
 * (see reconcileStoredObjects), marks it complete (or, with `force`,
 * force-completed without the missing files, if at least one arrived), and in the same
 * transaction gives each recipient a link key and queues their mail and the contract
 * notification list's "sent" mail. Finalising twice answers the first result again, because the
 * engine retries this call on errors.
 */
export async function finalisePackage(
  ctx: AppContext,
  pkgRef: PackageRow,
  contract: ContractRow,
  force: boolean,
): Promise<FinaliseResult> {
  return ctx.db.transaction(async (tx) => {
    // The row lock serialises concurrent finalise calls and late updatefiles reports.
    const current = await packageStatusForUpdate(tx, pkgRef.id);
    const files = await fileStatesOf(tx, pkgRef.id);
    const failedFiles = files.filter((f) => f.state !== 'stored').map((f) => f.userPath);
    if (current !== 'uploading') {
      return { status: current as FinaliseResult['status'], failedFiles };
    }
    const stored = files.filter((f) => f.state === 'stored');
    if (failedFiles.length && (!force || stored.length === 0)) {
      throw new ApiError(400, 'validation', {
        detail: sendMessages.notAllFiles,
        missing_files: failedFiles.slice(0, 100),
        missing_count: failedFiles.length,
      });
    }
    // Under the row lock: a write finishing on the embedded store waits for it, then finds the
    // package sent. Objects nobody recorded go; a package holding more than it declared is
    // refused here, before anything is sent.
    const reconciled = await reconcileStoredObjects(
      ctx.storage,
      pkgRef,
      new PackageDeclaration(await declaredFilesOf(tx, pkgRef.id)),
      stored,
    );
    if (reconciled.deleted > 0) {
      // Operators see how often grants write what nobody declared (a sender probing, or files
      // changed mid-upload); the package id only, no object names.
      ctx.log.info(
        { packageId: pkgRef.id, deleted: reconciled.deleted },
        'removed objects no sent file uses',
      );
    }
    const status = failedFiles.length ? 'force_completed' : 'complete';
    const sent = await markSent(tx, pkgRef.id, {
      status,
      numFiles: stored.length,
      bytes: stored.reduce((sum, f) => sum + f.size, 0),
    });

    const sender = await findUserById(tx, pkgRef.senderId!);
    const senderName = nameOfSender(sender ?? null);
    const recipients = await currentRecipientsOf(tx, pkgRef.id);
    for (const { recipient, user } of recipients) {
      await keyAndMailRecipient(ctx, tx, {
        recipient,
        user,
        pkg: sent,
        senderName,
        contractName: contract.name,
      });
    }
    await notifyContractWatchers(tx, ctx.config, contract, 'sent', {
      name: sent.name,
      senderName,
      detail: [
        `${stored.length} file(s) to ${recipients.map((r) => r.recipient.email).join(', ')}.`,
        ...(failedFiles.length ? [`${failedFiles.length} file(s) failed to upload.`] : []),
      ].join('\n'),
    });
    // Delivered when this transaction commits (or at the access period's start, if later): open
    // inboxes of the recipients refresh at once.
    await announceWhenOpen(ctx, tx, sent);
    return { status, failedFiles };
  });
}
