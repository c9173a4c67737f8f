import Button from '@mui/material/Button';
import { MessagePage } from '../../components/MessagePage';
import { useHelpUrl } from '../help/help-api';

/** The generic error page: also what a user-load failure and a crashed screen show. */
export function ErrorPage() {
  const helpUrl = useHelpUrl();
  return (
    <MessagePage
      title="Sorry! This page isn't working"
      actions={
        <Button variant="contained" href={helpUrl} target="_blank" rel="noopener">
          Launch Help Center
        </Button>
      }
    >
      Something went wrong on our side. Please try again in a few minutes.
    </MessagePage>
  );
}
