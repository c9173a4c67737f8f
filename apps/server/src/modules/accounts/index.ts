// What code outside the feature modules (the HTTP layer, the jobs) takes from accounts.
export { SESSION_COOKIE, type CallerMembership, type SessionStore, type UserRow } from './sessions';
export { senderName } from './display-name';
export { userColumns } from './accounts.repository';
