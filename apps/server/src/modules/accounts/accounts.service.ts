import { messages, normalizeMobile, type FieldErrors, type User } from '@filerunner/protocol';
import type { AppContext } from '../../context';
import { ApiError } from '../../http/errors';
import { activationMail, passwordChangedMail, resetMail } from '../../notify/account-mails';
import { markMembershipsActive } from '../memberships/member-view';
import type { CallerMembership } from '../memberships/memberships.repository';
import {
  consumeToken,
  findUserByEmail,
  findOrInsertAccount,
  issueToken,
  updateUser,
  userOfToken,
  type TokenPurpose,
} from './accounts.repository';
import { admitLogin, loginLimits, type LoginOutcome } from './login-limits';
import { decoyHash, hashPassword, passwordMatches, passwordProblem } from './passwords';
import type { UserRow } from './sessions';

/**
 * The user as the web app reads it; permissions summarise every enabled membership. The
 * memberships are the caller's, read with the session or key (or on their own at login).
 */
export function presentUser(row: UserRow, all: CallerMembership[]): User {
  const memberships = all.filter((m) => m.enabled);
  return {
    id: row.id,
    uid: row.uid,
    username: row.email,
    email: row.email,
    first_name: row.firstName,
    last_name: row.lastName,
    name: `${row.firstName} ${row.lastName}`.trim(),
    avatar: row.avatarType ? `/api/user/avatar/${row.uid}/?v=${row.avatarVersion}` : null,
    mobile: row.mobile,
    timezone: row.timezone,
    show_select_storage: row.showSelectStorage,
    admin: memberships.some((m) => m.admin),
    send: memberships.some((m) => m.send),
    receive: memberships.length > 0,
    enabled: memberships.length > 0,
    groups: [...new Set(memberships.flatMap((m) => m.groups))],
    created_date: row.createdAt.toISOString(),
  };
}

/**
 * Checks email and password. Only failures count toward the login limits; an attempt holds a
 * place under them while its password is compared, so parallel guesses cannot slip past them
 * (admitLogin). An attempt the failures leave no room for gets 429, the right password included.
 * A success does not count, and forgives the earlier failures of its address for that account.
 */
export async function authenticate(ctx: AppContext, email: string, password: string, ip: string) {
  const admission = await admitLogin(ctx.limiter, loginLimits(ctx.config, email, ip));
  if (!admission) throw ApiError.detail(429, 'rate_limited', messages.login.tooManyAttempts);
  let outcome: LoginOutcome = 'abandoned';
  let user: UserRow | undefined;
  try {
    user = await findUserByEmail(ctx.db, email);
    const ok = user?.activatedAt
      ? await passwordMatches(user.passwordHash, password)
      : await passwordMatches(await decoyHash(), `${password}\u0000never`);
    outcome = user && ok ? 'succeeded' : 'failed';
  } finally {
    await admission.end(outcome);
  }
  if (!user || outcome !== 'succeeded') {
    throw ApiError.detail(400, 'login_failed', messages.login.failed);
  }
  // Contracts that added the person since their last sign-in now count them active.
  await markMembershipsActive(ctx.db, user.id);
  return { user, session: await ctx.sessions.create(user.id) };
}

/**
 * Mails a reset link when an activated account has that address; says nothing either way. The
 * answer comes after the limits alone, the same work for every address: the lookup, token and
 * mail run after it, so the answer's timing does not tell which addresses have an account.
 */
export async function forgotPassword(ctx: AppContext, email: string, ip: string): Promise<void> {
  const { limiter, config } = ctx;
  const [byIp, byAccount] = await Promise.all([
    limiter.hit(`forgot:ip:${ip}`),
    limiter.hit(`forgot:account:${email.trim().toLowerCase()}`),
  ]);
  if (byIp > config.loginRateLimit * 5 || byAccount > config.loginRateLimit) {
    throw ApiError.detail(429, 'rate_limited', messages.login.tooManyAttempts);
  }
  ctx.pendingWork.track(
    // Started on the next turn of the event loop, once the answer is on its way.
    new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => mailResetLink(ctx, email))
      .catch((error: unknown) => ctx.log.error({ err: error }, 'forgot password: no reset link')),
  );
}

async function mailResetLink(ctx: AppContext, email: string): Promise<void> {
  const { config } = ctx;
  const user = await findUserByEmail(ctx.db, email);
  if (!user?.activatedAt) return;
  await ctx.db.transaction(async (tx) => {
    const token = await issueToken(tx, user.id, 'reset', config.tokenTtlHours);
    const link = `${config.publicUrl}/resetpassword/${user.uid}/${token}`;
    await ctx.mailbox.queue(tx, resetMail(user, link, config.tokenTtlHours));
  });
}

/** Creates (or finds) the account for an email and mails it an activation link. */
export async function inviteUser(
  ctx: AppContext,
  invite: {
    email: string;
    firstName?: string;
    lastName?: string;
    mobile?: string | null;
    contractName: string;
  },
): Promise<UserRow> {
  const { config } = ctx;
  return ctx.db.transaction(async (tx) => {
    const { user } = await findOrInsertAccount(tx, {
      email: invite.email.trim().toLowerCase(),
      firstName: invite.firstName ?? '',
      lastName: invite.lastName ?? '',
      mobile: invite.mobile ?? null,
    });
    if (!user.activatedAt) {
      const token = await issueToken(tx, user.id, 'activation', config.tokenTtlHours);
      const link = `${config.publicUrl}/activate/${user.uid}/${token}`;
      await ctx.mailbox.queue(
        tx,
        activationMail(user!, link, invite.contractName, config.tokenTtlHours),
      );
    }
    return user;
  });
}

export async function checkToken(
  ctx: AppContext,
  purpose: TokenPurpose,
  uid: string,
  token: string,
) {
  const user = await userOfToken(ctx.db, purpose, uid, token);
  if (!user || (purpose === 'activation') === Boolean(user.activatedAt)) return undefined;
  return user;
}

/** Password and confirmation errors keyed by the given field names, or an empty object. */
function newPasswordErrors(
  password: string,
  confirmation: string,
  keys: { password: string; confirm: string },
): FieldErrors {
  const errors: FieldErrors = {};
  const problem = passwordProblem(password);
  if (problem) errors[keys.password] = [problem];
  if (password !== confirmation) errors[keys.confirm] = [messages.password.mismatch];
  return errors;
}

export async function resetPassword(
  ctx: AppContext,
  input: { uid: string; token: string; password: string; password_confirm: string },
): Promise<void> {
  const user = await checkToken(ctx, 'reset', input.uid, input.token);
  if (!user) throw ApiError.fields({ token: [messages.reset.invalidToken] });
  const errors = newPasswordErrors(input.password, input.password_confirm, {
    password: 'password',
    confirm: 'password_confirm',
  });
  if (Object.keys(errors).length) throw ApiError.fields(errors);
  await setPassword(ctx, user, input.password, 'reset', input.token);
}

export async function activate(
  ctx: AppContext,
  input: {
    uid: string;
    token: string;
    name: string;
    mobile?: string | undefined;
    password: string;
    password_confirm: string;
  },
): Promise<void> {
  const user = await checkToken(ctx, 'activation', input.uid, input.token);
  if (!user) throw ApiError.fields({ token: [messages.activation.invalidToken] });
  const errors = newPasswordErrors(input.password, input.password_confirm, {
    password: 'password',
    confirm: 'password_confirm',
  });
  const mobile = input.mobile ? normalizeMobile(input.mobile) : null;
  if (input.mobile && !mobile) errors.mobile = [messages.profile.invalidMobile];
  if (Object.keys(errors).length) throw ApiError.fields(errors);
  const [firstName = '', ...rest] = input.name.trim().split(/\s+/);
  await updateUser(ctx.db, user.id, { firstName, lastName: rest.join(' '), mobile });
  await setPassword(ctx, user, input.password, 'activation', input.token);
  await markMembershipsActive(ctx.db, user.id);
}

export async function changePassword(
  ctx: AppContext,
  user: UserRow,
  input: { password_current: string; password_new: string; password_new_confirm: string },
): Promise<void> {
  if (!(await passwordMatches(user.passwordHash, input.password_current))) {
    throw ApiError.fields({ password_current: [messages.password.currentWrong] });
  }
  const errors = newPasswordErrors(input.password_new, input.password_new_confirm, {
    password: 'password_new',
    confirm: 'password_new_confirm',
  });
  if (Object.keys(errors).length) throw ApiError.fields(errors);
  await setPassword(ctx, user, input.password_new);
}

/**
 * Stores a new password hash, uses up the token that allowed it (if any), signs the account out
 * everywhere, revokes its API keys (a key must not outlive the password that let someone make
 * it) and tells its owner by mail, all in one transaction.
 */
async function setPassword(
  ctx: AppContext,
  user: UserRow,
  password: string,
  purpose?: TokenPurpose,
  token?: string,
): Promise<void> {
  const passwordHash = await hashPassword(password);
  await ctx.db.transaction(async (tx) => {
    if (purpose && token && !(await consumeToken(tx, purpose, token))) {
      const message =
        purpose === 'reset' ? messages.reset.invalidToken : messages.activation.invalidToken;
      throw ApiError.fields({ token: [message] });
    }
    await updateUser(tx, user.id, { passwordHash, activatedAt: user.activatedAt ?? new Date() });
    await ctx.sessions.endAllOf(user.id, tx);
    const revokedKeys = await ctx.apiKeys.revokeAllOf(user.id, tx);
    if (purpose !== 'activation') {
      const loginLink = `${ctx.config.publicUrl}/login`;
      await ctx.mailbox.queue(tx, passwordChangedMail(user, loginLink, revokedKeys));
    }
  });
}
