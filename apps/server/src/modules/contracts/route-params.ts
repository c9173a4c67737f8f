import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../http/errors';

/** A request to a contract's route, its `{slug}` already validated by the route table. */
export type ContractRequest = FastifyRequest & { params: { slug: string } };

/** `{slug}` of a contract route (until every route is served from the table). */
export const slugParam = (request: FastifyRequest) => (request.params as { slug: string }).slug;

/** A numeric id from the path; anything else is a 404 like an id that does not exist. */
export function idParam(request: FastifyRequest, name: string): number {
  const raw = (request.params as Record<string, string>)[name] ?? '';
  const id = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id) || id <= 0) throw ApiError.notFound();
  return id;
}
