import type { DownloadController } from '../features/transfers/download-controller';
import type { PageUploads } from '../features/transfers/page-uploads';
import type { ApiClient } from './api-client';

/** What the store's thunks and the API slice's base query get besides state and dispatch. */
export interface ThunkExtra {
  api: ApiClient;
  /** The transfer engine's uploads of this page. */
  uploads: PageUploads;
  /** The page's download queue. */
  downloads: DownloadController;
}
