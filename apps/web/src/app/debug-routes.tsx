import { DebugDownloadPage } from '../features/debug/download/DebugDownloadPage';
import { PreflightPage } from '../features/debug/preflight/PreflightPage';
import { RequireAuth } from '../features/shell/RequireAuth';

// The debug tools as route components, loaded only when a debug page is opened.

export function DownloadTool() {
  return (
    <RequireAuth>
      <DebugDownloadPage />
    </RequireAuth>
  );
}

export function PreflightTool() {
  return (
    <RequireAuth>
      <PreflightPage />
    </RequireAuth>
  );
}
