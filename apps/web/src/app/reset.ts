import { createAction } from '@reduxjs/toolkit';

/** Sign-out and session expiry: every store area returns to its initial state. */
export const resetClientState = createAction('app/resetClientState');
