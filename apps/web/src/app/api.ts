import { createApi, type BaseQueryFn } from '@reduxjs/toolkit/query/react';
import type {
  EndpointBuilder,
  ResultDescription,
  TypedMutationOnQueryStarted,
  TypedQueryOnQueryStarted,
} from '@reduxjs/toolkit/query';
import type { ApiRoute, RouteArgs, RouteResponse } from '@filerunner/protocol';
import { ApiError, type ApiErrorCode } from './api-client';
import type { AppDispatch } from './store';
import type { ThunkExtra } from './thunk';

/** A failed call as it travels through the store: plain data, readable by `firstErrorMessage`. */
export interface CallError {
  code: ApiErrorCode;
  /** 0 when there was no HTTP answer. */
  status: number;
  body: unknown;
}

interface Call {
  route: ApiRoute;
  args: unknown;
}

/** Every call goes through the app's one API client (version header, retries, session expiry). */
const callBaseQuery: BaseQueryFn<Call, unknown, CallError> = async ({ route, args }, thunkApi) => {
  const { api } = thunkApi.extra as ThunkExtra;
  try {
    return { data: await api.call(route, args as never, { signal: thunkApi.signal }) };
  } catch (error) {
    if (error instanceof ApiError) {
      return { error: { code: error.code, status: error.status, body: error.body } };
    }
    throw error;
  }
};

/** What a cached answer is about, so a change refetches exactly the lists it affects. */
export const tagTypes = [
  'User',
  'Memberships',
  'Contracts',
  'ContractUsers',
  'Groups',
  'Recipients',
  'Brandings',
  'ApiKeys',
  'Activity',
  'Received',
  'Sent',
] as const;
type TagType = (typeof tagTypes)[number];
type Build = EndpointBuilder<typeof callBaseQuery, TagType, 'api'>;
type Tags<R extends ApiRoute> = ResultDescription<
  TagType,
  RouteResponse<R>,
  RouteArgs<R>,
  CallError,
  object | undefined
>;

/**
 * The server state of the app: one endpoint per call of the route table, defined in the
 * features with `query` and `mutation` below (`injectEndpoints`).
 */
export const apiSlice = createApi({
  reducerPath: 'api',
  baseQuery: callBaseQuery,
  tagTypes,
  endpoints: () => ({}),
});

/** A read of the route table as a cached query; `onQueryStarted` may act on its answer. */
export function query<R extends ApiRoute>(
  build: Build,
  route: R,
  options: {
    providesTags?: Tags<R>;
    onQueryStarted?: TypedQueryOnQueryStarted<
      RouteResponse<R>,
      RouteArgs<R>,
      typeof callBaseQuery,
      'api'
    >;
  } = {},
) {
  return build.query<RouteResponse<R>, RouteArgs<R>>({
    query: (args) => ({ route, args }),
    ...options,
  });
}

/** A page of a list as the paged calls answer it: 'Load more' asks for `page + 1` while `has_more`. */
interface Page {
  page: number;
  has_more: boolean;
}

/**
 * A list read a page at a time into one cached list (an infinite query): `args` makes the
 * call's arguments for the list's key and the page wanted, starting at 1.
 */
export function pagedQuery<R extends ApiRoute & { response: { _zod: { output: Page } } }, Key>(
  build: Build,
  route: R,
  args: (key: Key, page: number) => RouteArgs<R>,
  options: { providesTags: TagType[] },
) {
  return build.infiniteQuery<RouteResponse<R>, Key, number>({
    infiniteQueryOptions: {
      initialPageParam: 1,
      getNextPageParam: (last) => {
        const { page, has_more } = last as Page;
        return has_more ? page + 1 : undefined;
      },
    },
    query: ({ queryArg, pageParam }) => ({ route, args: args(queryArg, pageParam) }),
    providesTags: options.providesTags,
  });
}

type MutationStarted<R extends ApiRoute> = TypedMutationOnQueryStarted<
  RouteResponse<R>,
  RouteArgs<R>,
  typeof callBaseQuery,
  'api'
>;

/**
 * A change through the route table, refetching the queries whose tags it names. A change that
 * answers with the new state can write it into the cache instead, in `onAnswer`, which runs
 * only for a successful answer (a failure is reported by whoever made the call).
 */
export function mutation<R extends ApiRoute>(
  build: Build,
  route: R,
  options: {
    invalidatesTags?: Tags<R>;
    onAnswer?: (answer: RouteResponse<R>, args: RouteArgs<R>, dispatch: AppDispatch) => void;
  } = {},
) {
  const { invalidatesTags, onAnswer } = options;
  const onQueryStarted: MutationStarted<R> | undefined = onAnswer
    ? async (args, { dispatch, queryFulfilled }) => {
        const answered = await queryFulfilled.catch(() => null);
        if (answered) onAnswer(answered.data, args, dispatch);
      }
    : undefined;
  return build.mutation<RouteResponse<R>, RouteArgs<R>>({
    query: (args) => ({ route, args }),
    ...(invalidatesTags ? { invalidatesTags } : {}),
    ...(onQueryStarted ? { onQueryStarted } : {}),
  });
}
