import { Link as RouterLink } from 'react-router';
import Button from '@mui/material/Button';
import { MessagePage } from '../../components/MessagePage';

export function NotFoundPage() {
  return (
    <MessagePage
      title="Sorry! We couldn't find that page"
      actions={
        <Button variant="contained" component={RouterLink} to="/">
          Go to my inbox
        </Button>
      }
    >
      The address may be mistyped, or the page may have moved.
    </MessagePage>
  );
}
