import { ScreenNotice } from '../../components/ScreenNotice';

/** /users — the project's users and groups (admins). */
export function UsersPage() {
  return (
    <ScreenNotice title="Users">
      User and group management is not available yet: this screen arrives with package sending.
    </ScreenNotice>
  );
}
