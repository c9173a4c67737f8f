import type { FastifyInstance } from 'fastify';
import { groupRoutes } from '@filerunner/protocol';
import type { AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { serve } from '../../http/routes';
import type { ContractRequest } from './route-params';
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

/** The Groups List's calls; every one needs a project admin of the contract. */
export async function contractGroupsRoutes(app: FastifyInstance, opts: { ctx: AppContext }) {
  const { ctx } = opts;
  const admin = async (request: ContractRequest) =>
    (await adminOf(ctx.db, requireUser(request), request.params.slug)).contract;

  serve(app, groupRoutes.list, async (request) => listGroups(ctx.db, (await admin(request)).id));

  serve(app, groupRoutes.add, async (request) => addGroup(ctx, await admin(request), request.body));

  serve(app, groupRoutes.edit, async (request) =>
    editGroup(ctx, await admin(request), request.params.groupId, request.body),
  );

  serve(app, groupRoutes.remove, async (request) => {
    await removeGroup(ctx, await admin(request), request.params.groupId);
  });

  serve(app, groupRoutes.addMembers, async (request) =>
    addGroupMembers(ctx, await admin(request), request.params.groupId, request.body.members),
  );

  serve(app, groupRoutes.removeMembers, async (request) =>
    removeGroupMembers(ctx, await admin(request), request.params.groupId, request.body.members),
  );

  serve(app, groupRoutes.addMasterMembers, async (request) =>
    setMasterMembers(ctx, await admin(request), request.body.master_members, true),
  );

  // The spec pairs `/mastermembers/add/` with `/mastermembers/`; the latter takes members out.
  serve(app, groupRoutes.removeMasterMembers, async (request) =>
    setMasterMembers(ctx, await admin(request), request.body.master_members, false),
  );
}
