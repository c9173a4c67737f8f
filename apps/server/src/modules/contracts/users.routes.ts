import type { FastifyInstance } from 'fastify';
import {
  externalUsersRequest,
  newContractUserRequest,
  permissionUpdateRequest,
  userDetailsRequest,
} from '@filerunner/protocol';
import type { AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { parse } from '../../http/errors';
import { adminOf } from './contracts.policy';
import { idParam, slugParam } from './route-params';
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
  const admin = (request: Parameters<typeof requireUser>[0]) =>
    adminOf(ctx.db, requireUser(request), slugParam(request));

  app.get('/contracts/:slug/permissions/', async (request) => {
    const { contract } = await admin(request);
    return listContractUsers(ctx.db, contract.id);
  });

  app.post('/contracts/:slug/users/', async (request, reply) => {
    const { contract } = await admin(request);
    const user = await addContractUser(ctx, contract, parse(newContractUserRequest, request.body));
    return reply.code(201).send(user);
  });

  app.post('/contracts/:slug/users/external/', async (request, reply) => {
    const { contract } = await admin(request);
    const result = externalUsersRequest.safeParse(request.body);
    if (!result.success) {
      return reply.code(400).send({ detail: result.error.issues.map((i) => i.message) });
    }
    return reply.code(201).send(await addExternalUsers(ctx, contract, result.data));
  });

  app.post('/contracts/:slug/permissions/:userId/', async (request) => {
    const { contract } = await admin(request);
    const userId = idParam(request, 'userId');
    const input = parse(permissionUpdateRequest, request.body);
    return updatePermissions(ctx, contract, requireUser(request).user.id, userId, input);
  });

  app.post('/contracts/:slug/userdetails/:userId/', async (request) => {
    const { contract } = await admin(request);
    const userId = idParam(request, 'userId');
    return updateUserName(ctx, contract, userId, parse(userDetailsRequest, request.body).name);
  });

  app.post('/contracts/:slug/removeuser/:userId/', async (request, reply) => {
    const { contract } = await admin(request);
    await removeContractUser(
      ctx,
      contract,
      requireUser(request).user.id,
      idParam(request, 'userId'),
    );
    return reply.code(204).send();
  });
}
