import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ErrorPage } from './ErrorPage';
import { NotFoundPage } from './NotFoundPage';

/** The router's error boundary: a crashed screen gets the error page instead of a blank one. */
export function RouteErrorPage() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  console.error(error);
  return <ErrorPage />;
}
