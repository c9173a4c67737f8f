import type { FastifyRequest } from 'fastify';

/** A request to a contract's route, its `{slug}` already validated by the route table. */
export type ContractRequest = FastifyRequest & { params: { slug: string } };
