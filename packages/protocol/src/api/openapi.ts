import { z } from 'zod';
import { API_KEY_SCHEME } from '../limits';
import { methodOf, type ApiRoute, type HttpMethod } from './route';

type JsonSchema = Record<string, unknown>;

/** A route's path as OpenAPI writes it: `{name}` parameters, and `{path}` for a rest of path. */
export function openApiPath(route: Pick<ApiRoute, 'path'>): string {
  return `/api${route.path.replace(/:([A-Za-z_]\w*)/g, '{$1}').replace(/\*$/, '{path}')}`;
}

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' });
  delete json.$schema;
  return json as JsonSchema;
}

function parametersOf(route: ApiRoute): JsonSchema[] {
  const out: JsonSchema[] = [];
  const add = (schema: z.ZodType | undefined, where: 'path' | 'query') => {
    if (!schema) return;
    const json = schemaOf(schema, 'input');
    const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((json.required ?? []) as string[]);
    for (const [name, property] of Object.entries(properties)) {
      out.push({
        name: name === '*' ? 'path' : name,
        in: where,
        required: where === 'path' || required.has(name),
        schema: property,
      });
    }
  };
  add(route.params, 'path');
  add(route.query, 'query');
  return out;
}

function responseOf(route: ApiRoute): JsonSchema {
  if (route.response === null) return { description: 'No content' };
  if (route.response === 'binary') {
    return {
      description: 'The bytes, whole or the requested range',
      content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
    };
  }
  return {
    description: 'Success',
    content: { 'application/json': { schema: schemaOf(route.response, 'output') } },
  };
}

const ERROR_RESPONSES = {
  '400': { description: 'Invalid request: `{"field": ["message"]}` or `{"detail": "message"}`' },
  '401': { description: 'Not signed in' },
  '403': { description: 'Not allowed' },
  '404': { description: 'Not found (also what an outsider sees of what exists)' },
};

/** The OpenAPI 3.1 document of the API, generated from the route table, a tag per area. */
export function openApiDocument(
  areas: Record<string, Record<string, ApiRoute>>,
  info: { title: string; version: string },
): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const routes = Object.entries(areas).flatMap(([area, calls]) =>
    Object.values(calls).map((route) => ({ area, route })),
  );
  for (const { area, route } of routes) {
    const methods: readonly HttpMethod[] =
      typeof route.method === 'string' ? [route.method] : route.method;
    for (const method of methods) {
      const operation: JsonSchema = {
        summary: route.summary,
        tags: [area],
        operationId: `${method.toLowerCase()}${openApiPath(route).replace(/[^A-Za-z0-9]+/g, '_')}`,
        parameters: parametersOf(route),
        responses: { [String(route.status)]: responseOf(route), ...ERROR_RESPONSES },
        ...(route.auth === 'public' ? { security: [] } : {}),
      };
      if (route.body && methodOf(route) !== 'GET') {
        operation.requestBody = {
          required: true,
          content: { 'application/json': { schema: schemaOf(route.body, 'input') } },
        };
      }
      if (route.form) {
        operation.requestBody = {
          required: true,
          content: { 'multipart/form-data': { schema: schemaOf(route.form, 'input') } },
        };
      }
      (paths[openApiPath(route)] ??= {})[method.toLowerCase()] = operation;
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      ...info,
      description:
        'Calls authenticate with the session cookie of a sign-in (mutating calls then need the ' +
        `\`X-Client-Version\` header) or with \`Authorization: ${API_KEY_SCHEME} <key>\`.`,
    },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'Authorization' },
        session: { type: 'apiKey', in: 'cookie', name: 'filerunner_session' },
      },
    },
    security: [{ apiKey: [] }, { session: [] }],
    paths,
  };
}
