import type { FastifyInstance } from 'fastify';
import { adminMessages, contractRoutes, recipientRoutes } from '@filerunner/protocol';
import type { AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { serve } from '../../http/routes';
import { recipientGroupsFor } from '../recipients/recipients.service';
import { contractAdmin, contractMember } from './contract-access';
import { contractsFrom } from './contracts.repository';
import { contractStorageOf } from './contracts.service';
import { updateContractSettings } from './settings.service';

export async function contractsRoutes(app: FastifyInstance, opts: { ctx: AppContext }) {
  const { ctx } = opts;

  serve(app, contractRoutes.list, async (request) =>
    contractsFrom(requireUser(request).memberships),
  );

  /** Whom the caller may send to, by group (any member; the group rules decide who is listed). */
  serve(
    app,
    recipientRoutes.list,
    async (request, _reply, contract) =>
      recipientGroupsFor(ctx.db, contract.id, requireUser(request).user.id),
    { access: contractMember(ctx.db) },
  );

  serve(
    app,
    contractRoutes.updateSettings,
    async (request, _reply, contract) => {
      const saved = await updateContractSettings(ctx, contract, request.body);
      return { detail: adminMessages.settingsUpdated, ...saved };
    },
    { access: contractAdmin(ctx.db) },
  );

  serve(
    app,
    contractRoutes.storage,
    async (_request, _reply, contract) => contractStorageOf(ctx, contract),
    { access: contractAdmin(ctx.db) },
  );
}
