import type { FastifyInstance, FastifyRequest } from 'fastify';
import { userRoutes } from '@filerunner/protocol';
import type { AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { serve } from '../../http/routes';
import { contractAdmin } from './contract-access';
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
  const admin = { access: contractAdmin(ctx.db) };
  const actingUserId = (request: FastifyRequest) => requireUser(request).user.id;

  serve(
    app,
    userRoutes.list,
    async (_request, _reply, contract) => listContractUsers(ctx.db, contract.id),
    admin,
  );

  serve(
    app,
    userRoutes.add,
    async (request, _reply, contract) => addContractUser(ctx, contract, request.body),
    admin,
  );

  // The dialog shows the problems of its rows as one list, so a refused body answers with the
  // messages under `detail` as the service's own refusals do, not by field.
  serve(
    app,
    userRoutes.addExternal,
    async (request, _reply, contract) => addExternalUsers(ctx, contract, request.body),
    {
      ...admin,
      invalidBody: (error) =>
        new ApiError(400, 'validation', { detail: error.issues.map((i) => i.message) }),
    },
  );

  serve(
    app,
    userRoutes.updatePermissions,
    async (request, _reply, contract) =>
      updatePermissions(ctx, contract, actingUserId(request), request.params.userId, request.body),
    admin,
  );

  serve(
    app,
    userRoutes.updateName,
    async (request, _reply, contract) =>
      updateUserName(ctx, contract, request.params.userId, request.body.name),
    admin,
  );

  serve(
    app,
    userRoutes.remove,
    async (request, _reply, contract) =>
      removeContractUser(ctx, contract, actingUserId(request), request.params.userId),
    admin,
  );
}
