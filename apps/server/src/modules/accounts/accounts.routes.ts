import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  activateRequest,
  authenticateRequest,
  forgotPasswordRequest,
  messages,
  profileUpdateFields,
  resetPasswordRequest,
  tokenCheckRequest,
  updatePasswordRequest,
  updateSettingsRequest,
} from '@filerunner/protocol';
import type { AppContext } from '../../context';
import { ApiError, parse } from '../../http/errors';
import { requireUser } from '../../http/auth';
import { membershipsOfUser } from '../contracts/contracts.repository';
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

/** The spec's token-check failure shape, read by the client as `errors.token[0]`. */
const invalidToken = (message: string) =>
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

  app.post('/authenticate/', async (request, reply) => {
    const { email, password } = parse(authenticateRequest, request.body);
    const { user, session } = await authenticate(ctx, email, password, request.ip);
    setSessionCookie(reply, session.token, session.expiresAt);
    request.principal = { user, via: 'session', sessionExpiresAt: session.expiresAt };
    return presentUser(ctx, user);
  });

  app.post('/logout/', async (request, reply) => {
    const hash = request.principal?.sessionHash;
    if (hash) await ctx.sessions.end(hash);
    request.principal = null;
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return reply.code(204).send();
  });

  app.post('/session/extend/', async (request, reply) => {
    const principal = requireUser(request);
    if (!principal.sessionHash) throw ApiError.forbidden();
    const token = request.cookies[SESSION_COOKIE]!;
    principal.sessionExpiresAt = await ctx.sessions.extend(principal.sessionHash);
    setSessionCookie(reply, token, principal.sessionExpiresAt);
    return reply.code(204).send();
  });

  app.get('/user/', async (request) => presentUser(ctx, requireUser(request).user));

  app.post('/user/', async (request) => {
    const { user } = requireUser(request);
    if (!request.isMultipart())
      throw ApiError.fields({ non_field_errors: ['Send the profile as form data.'] });
    const { fields, avatar } = await readProfileForm(request);
    const changes = parse(profileUpdateFields, fields);
    return presentUser(ctx, await updateProfile(ctx, user, changes, avatar));
  });

  app.get('/user/avatar/:uid/', async (request, reply) => {
    requireUser(request);
    const { uid } = request.params as { uid: string };
    const owner = await findUserByUid(ctx.db, uid);
    if (!owner?.avatar) throw ApiError.notFound();
    return reply.type(owner.avatarType ?? 'application/octet-stream').send(owner.avatar);
  });

  app.post('/user/update_settings/', async (request) => {
    const { user } = requireUser(request);
    const { show_select_storage } = parse(updateSettingsRequest, request.body);
    return presentUser(
      ctx,
      await updateUser(ctx.db, user.id, { showSelectStorage: show_select_storage }),
    );
  });

  app.post('/user/update_password/', async (request, reply) => {
    const { user } = requireUser(request);
    await changePassword(ctx, user, parse(updatePasswordRequest, request.body));
    request.principal = null;
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return { detail: messages.password.updated };
  });

  app.post('/user/forgot_password/', async (request) => {
    const { email } = parse(forgotPasswordRequest, request.body);
    await forgotPassword(ctx, email, request.ip);
    return { detail: messages.forgotPassword.emailSent };
  });

  app.post('/user/reset_password_check/', async (request) => {
    const body = tokenCheckRequest.safeParse(request.body ?? {});
    const user = body.success && (await checkToken(ctx, 'reset', body.data.uid, body.data.token));
    if (!user) throw invalidToken(messages.reset.invalidToken);
    return { success: true };
  });

  app.post('/user/reset_password/', async (request) => {
    await resetPassword(ctx, parse(resetPasswordRequest, request.body));
    return { success: true };
  });

  app.post('/user/activation_token_check/', async (request) => {
    const body = tokenCheckRequest.safeParse(request.body ?? {});
    const user =
      body.success && (await checkToken(ctx, 'activation', body.data.uid, body.data.token));
    if (!user) throw invalidToken(messages.activation.invalidToken);
    return {
      success: true,
      email: user.email,
      mobile: user.mobile,
      first_name: user.firstName,
      last_name: user.lastName,
    };
  });

  app.post('/user/activate/', async (request) => {
    await activate(ctx, parse(activateRequest, request.body));
    return { success: true };
  });

  app.get('/user/permissions/', async (request) =>
    membershipsOfUser(ctx.db, requireUser(request).user.id),
  );
}
