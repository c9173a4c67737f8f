import { useState } from 'react';
import { sendMessages, type SenderPackage } from '@filerunner/protocol';
import type { UploadPlan } from '@filerunner/transfer';
import type { PickedHandle } from '@filerunner/transfer/browser';
import { firstErrorMessage } from '../../app/api-client';
import { useAppDispatch } from '../../app/hooks';
import { startPackageUpload } from '../transfers/upload-actions';
import { useCreatePackageMutation } from './share-api';
import type { CreatePackageBody } from './share-form';

export interface PackageToSend {
  body: CreatePackageBody;
  plan: UploadPlan;
  picked: readonly PickedHandle[];
  workers: number;
}

/**
 * Sends a package: creates it (the server checks everything the form did, and more), then
 * hands it with its files to the upload queue. A refusal is told in the server's words when it
 * gives them, else 'Sorry we could not create that package'.
 */
export function useSendPackage() {
  const dispatch = useAppDispatch();
  const [createPackage] = useCreatePackageMutation();
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const send = async (what: PackageToSend): Promise<SenderPackage | null> => {
    setSending(true);
    setFailure(null);
    try {
      const pkg = await createPackage({ body: what.body }).unwrap();
      dispatch(
        startPackageUpload({ pkg, plan: what.plan, picked: what.picked, workers: what.workers }),
      );
      return pkg;
    } catch (error) {
      setFailure(firstErrorMessage(error, sendMessages.createFailed));
      return null;
    } finally {
      setSending(false);
    }
  };

  return { send, sending, failure };
}
