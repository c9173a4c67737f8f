import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchemaCompiler,
  RouteShorthandOptions,
} from 'fastify';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { ApiRoute, RouteBody, RouteParams, RouteQuery } from '@filerunner/protocol';
import { requireUser } from './auth';
import { ApiError, fieldErrorsOf } from './errors';

/** The request a route's handler receives: params, query and body already validated. */
export type RouteRequest<R extends ApiRoute> = FastifyRequest<{
  Params: RouteParams<R>;
  Querystring: RouteQuery<R>;
  Body: RouteBody<R>;
}>;

/**
 * What a handler answers: the response body (serialised through the route's schema, so a field
 * the schema lacks never leaves the server), or the reply when it sent one itself (bytes).
 */
type RouteAnswer<R extends ApiRoute> = R['response'] extends z.ZodType
  ? z.input<R['response']>
  : R['response'] extends 'binary'
    ? FastifyReply
    : void;

/** A call's handler: the request, the reply, and what `access` granted (e.g. the contract). */
export type RouteHandler<R extends ApiRoute, A = undefined> = (
  request: RouteRequest<R>,
  reply: FastifyReply,
  granted: A,
) => Promise<RouteAnswer<R>>;

export interface ServeOptions<R extends ApiRoute, A> {
  /**
   * Who may make the call, settled from the path before the query and body are checked, so a
   * caller without the right gets the same refusal (404 or 403) whatever they send. What it
   * answers (e.g. the contract the caller administers) reaches the handler. Give it as a named
   * or annotated function: TypeScript infers that answer's type only from those.
   */
  access?: (request: FastifyRequest, params: RouteParams<R>) => Promise<A>;
  /** The answer to a body the schema refuses, for calls whose client reads another shape. */
  invalidBody?: (error: z.ZodError) => ApiError;
  /** Hooks and limits passed to Fastify as they are (e.g. `bodyLimit`, `onSend`, `preParsing`). */
  fastify?: Pick<RouteShorthandOptions, 'bodyLimit' | 'onSend' | 'preParsing'>;
}

/** The routes registered so far, as the OpenAPI test compares them with the table. */
export interface RegisteredRoute {
  method: string;
  path: string;
}

/**
 * Registers one call of the route table: its schemas validate the request (a bad path names
 * nothing, so it is a 404; a bad query or body is a 400 with `{"field": [message]}`), a
 * signed-in user is required before anything else when the table says so, and the success
 * status is the table's.
 */
export function serve<R extends ApiRoute, A = undefined>(
  app: FastifyInstance,
  route: R,
  handler: RouteHandler<R, NoInfer<A>>,
  options: ServeOptions<R, A> = {},
): void {
  const { access } = options;
  const granted = new WeakMap<FastifyRequest, A>();
  const response =
    route.response === null || route.response === 'binary' ? undefined : route.response;
  app.withTypeProvider<ZodTypeProvider>().route({
    method: typeof route.method === 'string' ? route.method : [...route.method],
    url: route.path,
    schema: {
      ...(route.params ? { params: route.params } : {}),
      ...(route.query ? { querystring: route.query } : {}),
      ...(route.body ? { body: route.body } : {}),
      ...(response ? { response: { [route.status]: response } } : {}),
    },
    // Fastify types a route's compilers over its whole schema object; each is called per part.
    validatorCompiler: validatorFor(options.invalidBody) as never,
    serializerCompiler: serializerCompiler as never,
    ...(route.auth === 'user' ? { onRequest: requireSignedIn } : {}),
    ...(access
      ? {
          preValidation: async (request: FastifyRequest) => {
            const params = route.params ? route.params.safeParse(request.params) : undefined;
            // A path that names nothing is left to the validator, which answers 404.
            if (params && !params.success) return;
            granted.set(request, await access(request, params?.data as RouteParams<R>));
          },
        }
      : {}),
    ...options.fastify,
    handler: async (request, reply) => {
      reply.code(route.status);
      const answer = await handler(
        request as unknown as RouteRequest<R>,
        reply,
        granted.get(request) as A,
      );
      if (route.status === 204 && !reply.sent) return reply.send();
      return answer;
    },
  });
}

async function requireSignedIn(request: FastifyRequest): Promise<void> {
  requireUser(request);
}

function validatorFor(
  invalidBody: ServeOptions<ApiRoute, unknown>['invalidBody'],
): FastifySchemaCompiler<z.ZodType> {
  return ({ schema, httpPart }) =>
    (data) => {
      // A call without a body is checked as an empty one, so each missing field gets its message.
      const result = schema.safeParse(httpPart === 'body' && data === undefined ? {} : data, {
        reportInput: true,
      });
      if (result.success) return { value: result.data };
      if (httpPart === 'params') return { error: ApiError.notFound() };
      if (httpPart === 'body' && invalidBody) return { error: invalidBody(result.error) };
      return { error: ApiError.fields(fieldErrorsOf(result.error)) };
    };
}
