import { RequireAuth } from '../features/shell/RequireAuth';
import { RequireProjects } from '../features/shell/RequireProjects';
import { ShellLayout } from '../features/shell/ShellLayout';

/** The shell of the signed-in screens, loaded apart from the public pages' bundle. */
export function SignedInShell() {
  return (
    <RequireAuth>
      <RequireProjects>
        <ShellLayout />
      </RequireProjects>
    </RequireAuth>
  );
}
