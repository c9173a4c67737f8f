import Button from '@mui/material/Button';
import { MessagePage } from '../../components/MessagePage';
import { useHelpUrl } from '../help/help-api';
import { useLogout } from './use-logout';

/** For users without an active contract: nothing to show but a way out and a way to get help. */
export function NoActiveProjectsPage() {
  const logOut = useLogout();
  const helpUrl = useHelpUrl();
  return (
    <MessagePage
      title="You don't have any active projects"
      actions={
        <>
          <Button variant="contained" onClick={logOut}>
            Log out
          </Button>
          <Button variant="outlined" href={helpUrl} target="_blank" rel="noopener">
            Need Help?
          </Button>
        </>
      }
    >
      Your account is not part of an active project yet. Ask your project administrator to add you,
      or contact support.
    </MessagePage>
  );
}
