import { ScreenNotice } from '../../components/ScreenNotice';

/** /settings/:slug?/:tab? — the project's settings and custom branding (admins). */
export function SettingsPage() {
  return (
    <ScreenNotice title="Settings">
      Project settings are not available yet: this screen arrives with package sending.
    </ScreenNotice>
  );
}
