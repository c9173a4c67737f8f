import type { FastifyInstance } from 'fastify';
import { groupRoutes } from '@filerunner/protocol';
import type { AppContext } from '../../context';
import { serve } from '../../http/routes';
import { contractAdmin } from './contract-access';
import {
  addGroup,
  addGroupMembers,
  editGroup,
  listGroups,
  removeGroup,
  removeGroupMembers,
  setMasterMembers,
} from './groups.service';

/** The Groups List's calls; every one needs a project admin of the contract. */
export async function contractGroupsRoutes(app: FastifyInstance, opts: { ctx: AppContext }) {
  const { ctx } = opts;
  const admin = { access: contractAdmin(ctx.db) };

  serve(
    app,
    groupRoutes.list,
    async (_request, _reply, contract) => listGroups(ctx.db, contract.id),
    admin,
  );

  serve(
    app,
    groupRoutes.add,
    async (request, _reply, contract) => addGroup(ctx, contract, request.body),
    admin,
  );

  serve(
    app,
    groupRoutes.edit,
    async (request, _reply, contract) =>
      editGroup(ctx, contract, request.params.groupId, request.body),
    admin,
  );

  serve(
    app,
    groupRoutes.remove,
    async (request, _reply, contract) => removeGroup(ctx, contract, request.params.groupId),
    admin,
  );

  serve(
    app,
    groupRoutes.addMembers,
    async (request, _reply, contract) =>
      addGroupMembers(ctx, contract, request.params.groupId, request.body.members),
    admin,
  );

  serve(
    app,
    groupRoutes.removeMembers,
    async (request, _reply, contract) =>
      removeGroupMembers(ctx, contract, request.params.groupId, request.body.members),
    admin,
  );

  serve(
    app,
    groupRoutes.addMasterMembers,
    async (request, _reply, contract) =>
      setMasterMembers(ctx, contract, request.body.master_members, true),
    admin,
  );

  // `/mastermembers/add/` puts users into the master group; `/mastermembers/` takes them out.
  serve(
    app,
    groupRoutes.removeMasterMembers,
    async (request, _reply, contract) =>
      setMasterMembers(ctx, contract, request.body.master_members, false),
    admin,
  );
}
