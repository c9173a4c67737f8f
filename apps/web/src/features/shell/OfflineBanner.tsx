import { useAppSelector } from '../../app/hooks';
import { OfflineNotice } from '../../components/OfflineNotice';
import { hasUploadsUnderWay } from '../transfers/uploads-slice';

/** The offline banner of every page of the app, telling whether the page's upload is paused. */
export function OfflineBanner() {
  // Uploads pause while offline (see UploadGuards), and the person is told so.
  return <OfflineNotice uploading={useAppSelector(hasUploadsUnderWay)} />;
}
