import type { FastifyInstance } from 'fastify';
import { adminMessages, contractSettingsRequest } from '@filerunner/protocol';
import type { AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { parse } from '../../http/errors';
import { recipientGroupsFor } from '../recipients/recipients.service';
import { adminOf, memberOf } from './contracts.policy';
import { contractsOfUser } from './contracts.repository';
import { slugParam } from './route-params';
import { updateContractSettings } from './settings.service';

export async function contractsRoutes(app: FastifyInstance, opts: { ctx: AppContext }) {
  const { ctx } = opts;

  app.get('/contracts/', async (request) => contractsOfUser(ctx.db, requireUser(request).user.id));

  /** Whom the caller may send to, by group (any member; the group rules decide who is listed). */
  app.get('/contracts/:slug/recipients/', async (request) => {
    const principal = requireUser(request);
    const { contract } = await memberOf(ctx.db, principal, slugParam(request));
    return recipientGroupsFor(ctx.db, contract.id, principal.user.id);
  });

  app.post('/contracts/:slug/settings/', async (request) => {
    const { contract } = await adminOf(ctx.db, requireUser(request), slugParam(request));
    const input = parse(contractSettingsRequest, request.body);
    const saved = await updateContractSettings(ctx, contract, input);
    return { detail: adminMessages.settingsUpdated, ...saved };
  });
}
