import type { FastifyInstance } from 'fastify';
import { userRoutes } from '@filerunner/protocol';
import type { AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { serve } from '../../http/routes';
import { adminOf } from './contracts.policy';
import type { ContractRequest } from './route-params';
import {
  addContractUser,
  addExternalUsers,
  listContractUsers,
  removeContractUser,
  updatePermissions,
  updateUserName,
} from './users.service';

/** The Users screen's calls; every one needs a project admin of the contract. */
export async function contractUsersRoutes(app: FastifyInstance, opts: { ctx: AppContext }) {
  const { ctx } = opts;
  const admin = async (request: ContractRequest) =>
    (await adminOf(ctx.db, requireUser(request), request.params.slug)).contract;
  const actingUserId = (request: ContractRequest) => requireUser(request).user.id;

  serve(app, userRoutes.list, async (request) =>
    listContractUsers(ctx.db, (await admin(request)).id),
  );

  serve(app, userRoutes.add, async (request) =>
    addContractUser(ctx, await admin(request), request.body),
  );

  // The dialog shows the problems of its rows as one list, so a refused body answers with the
  // messages under `detail` as the service's own refusals do, not by field.
  serve(
    app,
    userRoutes.addExternal,
    async (request) => addExternalUsers(ctx, await admin(request), request.body),
    {
      invalidBody: (error) =>
        new ApiError(400, 'validation', { detail: error.issues.map((i) => i.message) }),
    },
  );

  serve(app, userRoutes.updatePermissions, async (request) =>
    updatePermissions(
      ctx,
      await admin(request),
      actingUserId(request),
      request.params.userId,
      request.body,
    ),
  );

  serve(app, userRoutes.updateName, async (request) =>
    updateUserName(ctx, await admin(request), request.params.userId, request.body.name),
  );

  serve(app, userRoutes.remove, async (request) => {
    await removeContractUser(
      ctx,
      await admin(request),
      actingUserId(request),
      request.params.userId,
    );
  });
}
