import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import type { ApiRoute } from '@filerunner/protocol';
// By path: the config is bundled for Node, which would load the package's TypeScript source as is.
import * as protocol from '../../../packages/protocol/src/index.ts';

const PROTOCOL = '@filerunner/protocol';
/** The browser's entry of the package; each area of the route table is a module of its own. */
const ENTRY = '\0browser-protocol';
const AREA = 'virtual:route-table/';
/** zod as the page's modules import it: jitless, set before the first schema is built. */
const JITLESS_ZOD = fileURLToPath(new URL('../src/app/zod-jitless.ts', import.meta.url));

/** Whether a route's field holds a zod schema (params, query, body, form, response). */
const isSchema = (value: unknown) => typeof value === 'object' && value !== null && '_zod' in value;

/**
 * A call as the browser makes it: its method, path and retry flags. The schemas stay with the
 * server, which validates every request; the summary is for the OpenAPI document. A multipart
 * route keeps `form` as `true`: the route client sends a form body as multipart by it.
 */
function address(route: ApiRoute): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(route)
      .filter(([field, value]) => field !== 'summary' && (field === 'form' || !isSchema(value)))
      .map(([field, value]) => [field, field === 'form' ? true : value]),
  );
}

/** Each area of the table by the name the package exports it under (`accountRoutes`). */
const areas = Object.entries(protocol.api).map(([area, routes]) => {
  const name = Object.entries(protocol).find(([, value]) => value === routes)?.[0];
  if (!name) throw new Error(`browser-protocol: the package exports no name for api.${area}`);
  const addresses = Object.fromEntries(
    Object.entries(routes).map(([call, route]) => [call, address(route)]),
  );
  return { area, name, addresses };
});

/**
 * `@filerunner/protocol` as the web app's bundles take it: the package itself with its route
 * table replaced by the calls' addresses, an area per module. The app reads answers by their
 * types (z.infer) and never runs the table's schemas, which with zod would weigh on every page,
 * /login first. The package's modules that still build schemas (realtime messages, the screens'
 * helpers beside their area's schemas) get zod with its `jitless` setting in force.
 */
export function browserProtocol(): Plugin {
  return {
    name: 'filerunner-browser-protocol',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source.startsWith(AREA)) return `\0${source}`;
      // The entry re-exports the package itself, and the jitless module zod itself.
      if (source === PROTOCOL && importer !== ENTRY) return ENTRY;
      if (source === 'zod' && importer !== JITLESS_ZOD) return JITLESS_ZOD;
      return null;
    },
    load(id) {
      if (id === ENTRY) {
        return [
          `export * from '${PROTOCOL}';`,
          ...areas.map(({ area, name }) => `import { ${name} } from '${AREA}${area}';`),
          `export { ${areas.map(({ name }) => name).join(', ')} };`,
          `export const api = { ${areas.map(({ area, name }) => `${area}: ${name}`).join(', ')} };`,
        ].join('\n');
      }
      const found = areas.find(({ area }) => id === `\0${AREA}${area}`);
      return found ? `export const ${found.name} = ${JSON.stringify(found.addresses)};` : null;
    },
  };
}
