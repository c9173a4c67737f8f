import type { FastifyInstance } from 'fastify';
import { adminMessages, contractRoutes, recipientRoutes } from '@filerunner/protocol';
import type { AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { serve } from '../../http/routes';
import { recipientGroupsFor } from '../recipients/recipients.service';
import { adminOf, memberOf } from './contracts.policy';
import { contractsOfUser } from './contracts.repository';
import { updateContractSettings } from './settings.service';

export async function contractsRoutes(app: FastifyInstance, opts: { ctx: AppContext }) {
  const { ctx } = opts;

  serve(app, contractRoutes.list, async (request) =>
    contractsOfUser(ctx.db, requireUser(request).user.id),
  );

  /** Whom the caller may send to, by group (any member; the group rules decide who is listed). */
  serve(app, recipientRoutes.list, async (request) => {
    const principal = requireUser(request);
    const { contract } = await memberOf(ctx.db, principal, request.params.slug);
    return recipientGroupsFor(ctx.db, contract.id, principal.user.id);
  });

  serve(app, contractRoutes.updateSettings, async (request) => {
    const { contract } = await adminOf(ctx.db, requireUser(request), request.params.slug);
    const saved = await updateContractSettings(ctx, contract, request.body);
    return { detail: adminMessages.settingsUpdated, ...saved };
  });
}
