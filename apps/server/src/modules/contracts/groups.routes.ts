import type { FastifyInstance, FastifyRequest } from 'fastify';
import { groupMembersRequest, groupRequest, masterMembersRequest } from '@filerunner/protocol';
import type { AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { parse } from '../../http/errors';
import { adminOf } from './contracts.policy';
import {
  addGroup,
  addGroupMembers,
  editGroup,
  listGroups,
  removeGroup,
  removeGroupMembers,
  setMasterMembers,
} from './groups.service';
import { idParam, slugParam } from './route-params';

/** The Groups List's calls; every one needs a project admin of the contract. */
export async function contractGroupsRoutes(app: FastifyInstance, opts: { ctx: AppContext }) {
  const { ctx } = opts;
  const admin = (request: FastifyRequest) =>
    adminOf(ctx.db, requireUser(request), slugParam(request));

  app.get('/contracts/:slug/groups/', async (request) =>
    listGroups(ctx.db, (await admin(request)).contract.id),
  );

  app.post('/contracts/:slug/addgroup/', async (request, reply) => {
    const { contract } = await admin(request);
    return reply.code(201).send(await addGroup(ctx, contract, parse(groupRequest, request.body)));
  });

  app.post('/contracts/:slug/editgroup/:groupId/', async (request) => {
    const { contract } = await admin(request);
    return editGroup(ctx, contract, idParam(request, 'groupId'), parse(groupRequest, request.body));
  });

  app.post('/contracts/:slug/removegroup/:groupId/', async (request, reply) => {
    const { contract } = await admin(request);
    await removeGroup(ctx, contract, idParam(request, 'groupId'));
    return reply.code(204).send();
  });

  app.post('/contracts/:slug/groups/:groupId/', async (request) => {
    const { contract } = await admin(request);
    const { members } = parse(groupMembersRequest, request.body);
    return addGroupMembers(ctx, contract, idParam(request, 'groupId'), members);
  });

  app.post('/contracts/:slug/groups/:groupId/remove/', async (request) => {
    const { contract } = await admin(request);
    const { members } = parse(groupMembersRequest, request.body);
    return removeGroupMembers(ctx, contract, idParam(request, 'groupId'), members);
  });

  app.post('/contracts/:slug/mastermembers/add/', async (request) => {
    const { contract } = await admin(request);
    return setMasterMembers(
      ctx,
      contract,
      parse(masterMembersRequest, request.body).master_members,
      true,
    );
  });

  // The spec pairs `/mastermembers/add/` with `/mastermembers/`; the latter takes members out.
  app.post('/contracts/:slug/mastermembers/', async (request) => {
    const { contract } = await admin(request);
    return setMasterMembers(
      ctx,
      contract,
      parse(masterMembersRequest, request.body).master_members,
      false,
    );
  });
}
