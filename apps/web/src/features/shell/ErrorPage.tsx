import Button from '@mui/material/Button';
import { helpCenterUrl } from '../../app/config';
import { MessagePage } from '../../components/MessagePage';

/** The generic error page: also what a user-load failure and a crashed screen show. */
export function ErrorPage() {
  return (
    <MessagePage
      title="Sorry! This page isn't working"
      actions={
        <Button variant="contained" href={helpCenterUrl} target="_blank" rel="noopener">
          Launch Help Center
        </Button>
      }
    >
      Something went wrong on our side. Please try again in a few minutes.
    </MessagePage>
  );
}
