import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  IDEMPOTENCY_KEY_HEADER,
  idempotencyKey,
  packageLimits,
  packageRoutes,
  sendMessages,
} from '@filerunner/protocol';
import type { AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { serve } from '../../http/routes';
import { createPackage } from './create-package.service';
import { finalisePackage } from './finalise.service';
import { ownPackage } from './packages.policy';
import { planBodyAllowance } from './bulk-plan';
import { declaredPathTotals, senderPackageView } from './packages.repository';
import {
  recordLargeFile,
  recordSlab,
  recordUploadedFiles,
  signUploadGrants,
} from './upload.service';

/** An upload call, its contract and package slugs already validated by the route table. */
type UploadRequest = FastifyRequest & { params: { contract: string; package: string } };

/** The create's `Idempotency-Key`, or null without one; a malformed key is a 400. */
function idempotencyKeyOf(request: FastifyRequest): string | null {
  const header = request.headers[IDEMPOTENCY_KEY_HEADER];
  if (header === undefined) return null;
  const parsed = idempotencyKey.safeParse(header);
  if (!parsed.success) {
    throw ApiError.fields({ [IDEMPOTENCY_KEY_HEADER]: [sendMessages.badIdempotencyKey] });
  }
  return parsed.data;
}

/**
 * The create call and the upload plan's grant call name every file of the package, so their
 * bodies grow with its count: room for the most files a package may hold at 320 bytes of JSON
 * each (a frame of a sequence, deep in its folders, takes about 110). The grant call is held
 * tighter still, to what the package declared, before its body is read.
 */
const FILE_LIST_BODY_LIMIT = packageLimits.maxFiles * 320;

/** The sender's calls: create a package, get upload grants, report what landed, finalise. */
export async function packagesRoutes(app: FastifyInstance, opts: { ctx: AppContext }) {
  const { ctx } = opts;

  serve(
    app,
    packageRoutes.create,
    async (request) => {
      const principal = requireUser(request);
      const id = await createPackage(ctx, principal, request.body, idempotencyKeyOf(request));
      return senderPackageView(ctx.db, ctx.storage, id);
    },
    { fastify: { bodyLimit: FILE_LIST_BODY_LIMIT } },
  );

  serve(
    app,
    packageRoutes.bulk,
    async (request) => {
      const { pkg } = await ownPackage(ctx.db, requireUser(request), request.params.slug);
      return signUploadGrants(ctx, pkg, request.body);
    },
    {
      fastify: {
        bodyLimit: FILE_LIST_BODY_LIMIT,
        preParsing: async (request, reply, payload) => {
          // A path that names nothing is left to the validator, which answers 404.
          const params = packageRoutes.bulk.params.safeParse(request.params);
          if (!params.success) return payload;
          const { pkg } = await ownPackage(ctx.db, requireUser(request), params.data.slug);
          const length = Number(request.headers['content-length'] ?? 0);
          if (length > planBodyAllowance(await declaredPathTotals(ctx.db, pkg.id))) {
            // The body stays unread: the connection cannot carry another request.
            reply.header('connection', 'close');
            throw ApiError.detail(413, 'payload_too_large', sendMessages.planTooLarge);
          }
          return payload;
        },
      },
    },
  );

  // The upload calls name the contract and the package; both must be the caller's.
  const upload = (request: UploadRequest) =>
    ownPackage(ctx.db, requireUser(request), request.params.package, request.params.contract);

  serve(app, packageRoutes.updateFiles, async (request) => {
    const { pkg } = await upload(request);
    return recordUploadedFiles(ctx, pkg, request.body);
  });

  serve(app, packageRoutes.updateSlabFile, async (request) => {
    const { pkg } = await upload(request);
    return recordSlab(ctx, pkg, request.body);
  });

  serve(app, packageRoutes.slo, async (request) => {
    const { pkg } = await upload(request);
    return recordLargeFile(ctx, pkg, request.body);
  });

  serve(app, packageRoutes.finalise, async (request) => {
    const { pkg, contract } = await upload(request);
    const result = await finalisePackage(ctx, pkg, contract, request.body.force);
    return {
      ...(await senderPackageView(ctx.db, ctx.storage, pkg.id)),
      failed_files: result.failedFiles,
    };
  });
}
