import type { FastifyInstance, FastifyReply } from 'fastify';
import { accountRoutes, messages, profileUpdateFields } from '@filerunner/protocol';
import type { AppContext } from '../../context';
import { ApiError, parse } from '../../http/errors';
import { requireUser } from '../../http/auth';
import { serve } from '../../http/routes';
import { sandboxBytes } from '../../storage';
import { callerMemberships, membershipsFrom } from '../memberships/memberships.repository';
import { findUserByUid, updateUser } from './accounts.repository';
import {
  activate,
  authenticate,
  changePassword,
  checkToken,
  forgotPassword,
  presentUser,
  resetPassword,
} from './accounts.service';
import { readProfileForm } from './profile-form';
import { updateProfile } from './profile.service';
import { SESSION_COOKIE } from './sessions';

/**
 * The token-check failure shape, read by the client as `errors.token[0]`; a body without a good
 * uid and token gets it too, since the link it came from is what is wrong.
 */
const invalidToken = (message: string) => () =>
  new ApiError(400, 'invalid_token', { errors: { token: [message] } });

export async function accountsRoutes(app: FastifyInstance, opts: { ctx: AppContext }) {
  const { ctx } = opts;

  const setSessionCookie = (reply: FastifyReply, token: string, expires: Date) =>
    reply.setCookie(SESSION_COOKIE, token, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: ctx.config.secureCookies,
      expires,
    });

  serve(app, accountRoutes.authenticate, async (request, reply) => {
    const { email, password } = request.body;
    const { user, session } = await authenticate(ctx, email, password, request.ip);
    setSessionCookie(reply, session.token, session.expiresAt);
    const memberships = await callerMemberships(ctx.db, user.id);
    request.principal = { user, memberships, via: 'session', sessionExpiresAt: session.expiresAt };
    return presentUser(user, memberships);
  });

  serve(app, accountRoutes.logout, async (request, reply) => {
    const hash = request.principal?.sessionHash;
    if (hash) await ctx.sessions.end(hash);
    request.principal = null;
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
  });

  serve(app, accountRoutes.extendSession, async (request, reply) => {
    const principal = requireUser(request);
    // An API key has no session to extend.
    if (!principal.sessionHash) throw ApiError.forbidden();
    const token = request.cookies[SESSION_COOKIE]!;
    const expiresAt = await ctx.sessions.extend(principal.sessionHash);
    if (!expiresAt) {
      // Past its maximum age the session has ended: the client signs out as on an expiry.
      request.principal = null;
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      throw ApiError.unauthenticated();
    }
    principal.sessionExpiresAt = expiresAt;
    setSessionCookie(reply, token, expiresAt);
  });

  serve(app, accountRoutes.user, async (request) => {
    const { user, memberships } = requireUser(request);
    return presentUser(user, memberships);
  });

  // Multipart: the form is read here, as the avatar file travels beside the text fields.
  serve(app, accountRoutes.updateProfile, async (request) => {
    const { user, memberships } = requireUser(request);
    if (!request.isMultipart())
      throw ApiError.fields({ non_field_errors: ['Send the profile as form data.'] });
    const { fields, avatar } = await readProfileForm(request);
    const changes = parse(profileUpdateFields, fields);
    return presentUser(await updateProfile(ctx, user, changes, avatar), memberships);
  });

  serve(
    app,
    accountRoutes.avatar,
    async (request, reply) => {
      const owner = await findUserByUid(ctx.db, request.params.uid);
      if (!owner?.avatar) throw ApiError.notFound();
      return reply.type(owner.avatarType ?? 'application/octet-stream').send(owner.avatar);
    },
    // A user's bytes, re-encoded but served inline on the app's origin: sandboxed all the same
    // (an <img> shows them; only a document opened from them is held to the sandbox).
    { fastify: { onSend: sandboxBytes } },
  );

  serve(app, accountRoutes.updateSettings, async (request) => {
    const { user, memberships } = requireUser(request);
    return presentUser(
      await updateUser(ctx.db, user.id, { showSelectStorage: request.body.show_select_storage }),
      memberships,
    );
  });

  serve(app, accountRoutes.updatePassword, async (request, reply) => {
    const { user } = requireUser(request);
    await changePassword(ctx, user, request.body);
    // Every session of the user has ended, this one included.
    request.principal = null;
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return { detail: messages.password.updated };
  });

  serve(app, accountRoutes.forgotPassword, async (request) => {
    await forgotPassword(ctx, request.body.email, request.ip);
    return { detail: messages.forgotPassword.emailSent };
  });

  serve(
    app,
    accountRoutes.resetPasswordCheck,
    async (request) => {
      const { uid, token } = request.body;
      if (!(await checkToken(ctx, 'reset', uid, token)))
        throw invalidToken(messages.reset.invalidToken)();
      return { success: true };
    },
    { invalidBody: invalidToken(messages.reset.invalidToken) },
  );

  serve(app, accountRoutes.resetPassword, async (request) => {
    await resetPassword(ctx, request.body);
    return { success: true };
  });

  serve(
    app,
    accountRoutes.activationTokenCheck,
    async (request) => {
      const { uid, token } = request.body;
      const user = await checkToken(ctx, 'activation', uid, token);
      if (!user) throw invalidToken(messages.activation.invalidToken)();
      return {
        success: true,
        email: user.email,
        mobile: user.mobile,
        first_name: user.firstName,
        last_name: user.lastName,
      };
    },
    { invalidBody: invalidToken(messages.activation.invalidToken) },
  );

  serve(app, accountRoutes.activate, async (request) => {
    await activate(ctx, request.body);
    return { success: true };
  });

  serve(app, accountRoutes.memberships, async (request) =>
    membershipsFrom(requireUser(request).memberships),
  );
}
