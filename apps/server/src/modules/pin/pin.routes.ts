import type { FastifyInstance } from 'fastify';
import { pinRoutes as routes } from '@filerunner/protocol';
import type { AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { serve } from '../../http/routes';
import { RateLimiter } from '../accounts/rate-limit';
import { PIN_SEND_WINDOW_SECONDS, sendPin, verifyPin, type PinDeps } from './pin.service';

/**
 * PIN verification: a recipient of a PIN package has a PIN texted, then enters it. Signed-in
 * recipients are found by their session, link holders by their key.
 */
export async function pinRoutes(app: FastifyInstance, opts: { ctx: AppContext }) {
  const deps: PinDeps = {
    ctx: opts.ctx,
    limiter: new RateLimiter(opts.ctx.db, PIN_SEND_WINDOW_SECONDS),
  };

  serve(app, routes.send, async (request) =>
    sendPin(deps, { principal: requireUser(request) }, request.params.slug, request.ip),
  );

  serve(app, routes.sendExternal, async (request) =>
    sendPin(deps, { key: request.body.key }, request.params.slug, request.ip),
  );

  serve(app, routes.verify, async (request) =>
    verifyPin(deps, { principal: requireUser(request) }, request.params.slug, request.body.code),
  );

  serve(app, routes.verifyExternal, async (request) =>
    verifyPin(deps, { key: request.body.key }, request.params.slug, request.body.code),
  );
}
