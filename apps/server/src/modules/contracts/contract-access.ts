import type { FastifyRequest } from 'fastify';
import type { ContractRow } from '../../db/rows';
import type { Database } from '../../db/client';
import { requireUser } from '../../http/auth';
import { adminOf, memberOf } from './contracts.policy';

/** A contract named in a call's path, as `{slug}` or `{contract}`. */
type ContractPath = { slug: string } | { contract: string };
const slugOf = (params: ContractPath) => ('slug' in params ? params.slug : params.contract);

/**
 * The `access` of a call of the contract's admin screens: the contract the caller administers
 * (404 for an outsider, 403 for a member who is no admin), settled before the body is read.
 */
export function contractAdmin(db: Database) {
  return async (request: FastifyRequest, params: ContractPath): Promise<ContractRow> =>
    (await adminOf(db, requireUser(request), slugOf(params))).contract;
}

/** The `access` of a call any member of the contract may make: the contract (404 otherwise). */
export function contractMember(db: Database) {
  return async (request: FastifyRequest, params: ContractPath): Promise<ContractRow> =>
    (await memberOf(db, requireUser(request), slugOf(params))).contract;
}
