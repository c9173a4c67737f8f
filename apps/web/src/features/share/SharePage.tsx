import { ScreenNotice } from '../../components/ScreenNotice';

/** /share — the send-package form. */
export function SharePage() {
  return (
    <ScreenNotice title="Share">
      Sending packages is not available yet: this screen arrives with package sending.
    </ScreenNotice>
  );
}
