import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { createApiClient } from './app/api-client';
import { AppFrame } from './app/AppFrame';
import { createCallStore } from './app/call-store';
import { OfflineNotice } from './components/OfflineNotice';
import { ExternalPackagePage } from './features/external/ExternalPackagePage';

// /inbox/external/:slug?key=… opened from the mailed link (external.html): the package page with
// the API cache alone, without the app's router, shell and other screens.

const element = document.getElementById('root');
if (!element) throw new Error('external.html has no #root element');

const [, , , slug = ''] = window.location.pathname.split('/');
const store = createCallStore(createApiClient({ clientVersion: __APP_VERSION__ }));

createRoot(element).render(
  <AppFrame>
    <Provider store={store}>
      <ExternalPackagePage
        slug={decodeURIComponent(slug)}
        accessKey={new URLSearchParams(window.location.search).get('key')}
      />
      <OfflineNotice />
    </Provider>
  </AppFrame>,
);
