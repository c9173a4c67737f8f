import { DebugDownloadPage } from '../features/debug/download/DebugDownloadPage';
import { RequireAuth } from '../features/shell/RequireAuth';

// The debug tools as route components, loaded only when a debug page is opened.

export function DownloadTool() {
  return (
    <RequireAuth>
      <DebugDownloadPage />
    </RequireAuth>
  );
}
