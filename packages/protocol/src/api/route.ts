import type { z } from 'zod';
import type { FormBody } from './http';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PATCH';

/**
 * One call of the API, written once: the server registers and validates it from this, the web
 * app derives its endpoint from it, and the OpenAPI document is generated from it.
 */
export interface ApiRoute {
  /** The verb, or verbs for a download that also answers HEAD. */
  method: HttpMethod | readonly HttpMethod[];
  /** Below `/api`, with Fastify's `:name` parameters and a trailing `*` for a rest of path. */
  path: string;
  /** One line for the API's readers (the OpenAPI summary). */
  summary: string;
  /** Who may call it at all: anyone, or a signed-in user (session cookie or API key). */
  auth: 'public' | 'user';
  params?: z.ZodType;
  query?: z.ZodType;
  /** A JSON body; `form` describes a multipart body instead. */
  body?: z.ZodType;
  /** The text fields of a multipart form (files travel beside them). */
  form?: z.ZodType;
  /** The success status and its body; `null` for an empty body (204), `'binary'` for bytes. */
  status: 200 | 201 | 202 | 204;
  response: z.ZodType | null | 'binary';
  /**
   * Whether repeating the call has the effect of one call, so a client may retry it after a
   * server fault or a timeout. Reads are; writes only when the server makes them so.
   */
  idempotent?: boolean;
  /** The client sends an `Idempotency-Key` the server uses to answer a repeat with the first result. */
  idempotencyKey?: boolean;
  /**
   * A 400 is worth another attempt too: the upload reports check storage, whose listing may lag
   * behind an object just stored.
   */
  retryOn400?: boolean;
  /** The client waits as long as the call takes: the upload reports check storage before they answer. */
  noTimeout?: boolean;
}

/** Keeps a route's literal types (paths, schemas) for both sides. */
export const defineRoute = <const R extends ApiRoute>(route: R): R => route;

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
type In<S> = S extends z.ZodType ? z.input<S> : undefined;

/** What the server's handler receives, after validation. */
export type RouteParams<R extends ApiRoute> = Out<R['params']>;
export type RouteQuery<R extends ApiRoute> = Out<R['query']>;
export type RouteBody<R extends ApiRoute> = Out<R['body']>;

/** What the server's handler answers (before serialisation) and the client reads. */
export type RouteResponse<R extends ApiRoute> = R['response'] extends z.ZodType
  ? z.output<R['response']>
  : R['response'] extends 'binary'
    ? unknown
    : undefined;

/**
 * A path's parameters as a client gives them: each travels as text, so an id may be given as the
 * number it stands for as well as its text.
 */
type PathArgs<S extends z.ZodType> = {
  [K in keyof z.input<S>]: z.input<S>[K] | (K extends keyof z.output<S> ? z.output<S>[K] : never);
};

type Parts<R extends ApiRoute> = (R['params'] extends z.ZodType
  ? { params: PathArgs<R['params']> }
  : { params?: undefined }) &
  (R['query'] extends z.ZodType ? { query?: In<R['query']> } : { query?: undefined }) &
  (R['body'] extends z.ZodType
    ? { body: In<R['body']> }
    : R['form'] extends z.ZodType
      ? { body: FormBody }
      : { body?: undefined });

/** What a client passes to make the call: only the parts the route has; nothing for a bare call. */
export type RouteArgs<R extends ApiRoute> = R['params'] extends z.ZodType
  ? Parts<R>
  : R['query'] extends z.ZodType
    ? Parts<R>
    : R['body'] extends z.ZodType
      ? Parts<R>
      : R['form'] extends z.ZodType
        ? Parts<R>
        : void;

/** The first verb of a route (its only one but for downloads, which also answer HEAD). */
export function methodOf(route: ApiRoute): HttpMethod {
  return typeof route.method === 'string' ? route.method : route.method[0]!;
}

/** Whether a client may repeat the call after a fault (reads, and writes made idempotent). */
export function isIdempotent(route: ApiRoute): boolean {
  return route.idempotent ?? (methodOf(route) === 'GET' || methodOf(route) === 'HEAD');
}

/**
 * The path of a call with its parameters filled in, each encoded; a rest-of-path `*` keeps its
 * slashes between encoded segments.
 */
export function pathOf(route: ApiRoute, params: Record<string, unknown> = {}): string {
  return route.path
    .replace(/:([A-Za-z_]\w*)/g, (_, name: string) => {
      const value = params[name];
      if (value === undefined || value === null) throw new Error(`${route.path}: no ${name}`);
      return encodeURIComponent(String(value));
    })
    .replace(/\*$/, () =>
      String(params['*'] ?? '')
        .split('/')
        .map(encodeURIComponent)
        .join('/'),
    );
}
