import { DebugToolPage } from '../features/debug/DebugToolPage';
import { RequireAuth } from '../features/shell/RequireAuth';

// The debug tools as route components, loaded only when a debug page is opened.

export const LatencyTool = () => <DebugToolPage path="/debug/latency" />;
export const FsAccessTool = () => <DebugToolPage path="/debug/fs-access-check" />;
export function DownloadTool() {
  return (
    <RequireAuth>
      <DebugToolPage path="/debug/download" />
    </RequireAuth>
  );
}
