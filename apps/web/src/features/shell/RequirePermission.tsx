import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useAppSelector } from '../../app/hooks';
import { selectSelectedContract } from '../projects/projects-api';
import { routePrefix } from './navigation';

/**
 * Screens that need a permission in the selected project: without it the user lands on the
 * inbox (non-admins on activity, users, settings; receive-only users on share).
 */
export function RequirePermission(props: { permission: 'admin' | 'send'; children: ReactNode }) {
  const contract = useAppSelector(selectSelectedContract);
  const prefix = routePrefix(useLocation().pathname);
  if (!contract?.permissions[props.permission]) return <Navigate to={`${prefix}/inbox`} replace />;
  return props.children;
}
