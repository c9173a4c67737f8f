import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  bulkRequest,
  createPackageRequest,
  finaliseRequest,
  sloRequest,
  updateFilesRequest,
  updateSlabFileRequest,
} from '@filerunner/protocol';
import type { AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { parse } from '../../http/errors';
import { createPackage } from './create-package.service';
import { finalisePackage } from './finalise.service';
import { ownPackage } from './packages.policy';
import { senderPackageView } from './packages.repository';
import {
  recordLargeFile,
  recordSlab,
  recordUploadedFiles,
  signUploadGrants,
} from './upload.service';

type UploadParams = { contract: string; package: string };

/** The sender's calls: create a package, get upload grants, report what landed, finalise. */
export async function packagesRoutes(app: FastifyInstance, opts: { ctx: AppContext }) {
  const { ctx } = opts;

  app.post('/packages/create/', async (request, reply) => {
    const principal = requireUser(request);
    const input = parse(createPackageRequest, request.body);
    const id = await createPackage(ctx, principal, input);
    return reply.code(201).send(await senderPackageView(ctx.db, ctx.storage, id));
  });

  app.post('/packages/:slug/bulk/', async (request) => {
    const { pkg } = await ownPackage(
      ctx.db,
      requireUser(request),
      (request.params as { slug: string }).slug,
    );
    return signUploadGrants(ctx, pkg, parse(bulkRequest, request.body));
  });

  // The upload calls name the contract and the package; both must be the caller's.
  const upload = (request: FastifyRequest) => {
    const params = request.params as UploadParams;
    return ownPackage(ctx.db, requireUser(request), params.package, params.contract);
  };

  app.post('/packages/:contract/:package/updatefiles/', async (request) => {
    const { pkg } = await upload(request);
    return recordUploadedFiles(ctx, pkg, parse(updateFilesRequest, request.body));
  });

  app.post('/packages/:contract/:package/updateslabfile/', async (request) => {
    const { pkg } = await upload(request);
    return recordSlab(ctx, pkg, parse(updateSlabFileRequest, request.body));
  });

  app.post('/packages/:contract/:package/slo/', async (request) => {
    const { pkg } = await upload(request);
    return recordLargeFile(ctx, pkg, parse(sloRequest, request.body));
  });

  app.post('/packages/:contract/:package/update/', async (request) => {
    const { pkg, contract } = await upload(request);
    const { force } = parse(finaliseRequest, request.body);
    const result = await finalisePackage(ctx, pkg, contract, force);
    return {
      ...(await senderPackageView(ctx.db, ctx.storage, pkg.id)),
      failed_files: result.failedFiles,
    };
  });
}
