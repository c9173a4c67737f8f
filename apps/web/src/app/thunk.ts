import type { UploadController } from '../features/transfers/upload-controller';
import type { ApiClient } from './api-client';

/** What the store's thunks and the API slice's base query get besides state and dispatch. */
export interface ThunkExtra {
  api: ApiClient;
  /** The transfer engine's uploads of this page. */
  uploads: UploadController;
}
