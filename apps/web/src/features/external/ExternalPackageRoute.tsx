import { useParams, useSearchParams } from 'react-router';
import { ExternalPackagePage } from './ExternalPackagePage';

/**
 * The external package page as a route of the app, for the dev server and builds without
 * external.html; the server sends external.html for these links, which reads the same two values
 * from the address itself (external-main.tsx).
 */
export function ExternalPackageRoute() {
  const { slug } = useParams();
  const [search] = useSearchParams();
  return <ExternalPackagePage slug={slug ?? ''} accessKey={search.get('key')} />;
}
