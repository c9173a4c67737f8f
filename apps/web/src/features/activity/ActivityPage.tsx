import { ScreenNotice } from '../../components/ScreenNotice';

/** /activity — the project's package activity and reports (admins). */
export function ActivityPage() {
  return (
    <ScreenNotice title="Activity">
      Project activity is not available yet: this screen arrives with package sending.
    </ScreenNotice>
  );
}
