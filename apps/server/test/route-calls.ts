import { api, type ApiRoute } from '@filerunner/protocol';

// Calls of the route table named and answered as plain data, so the route client's suite
// (route-client-contract.ts) can drive a client in a page as well as in Node.

/** A call of the table by its name, `area.call` (`accounts.user`), so a page can name it too. */
export type RouteName = {
  [A in keyof typeof api]: `${A & string}.${keyof (typeof api)[A] & string}`;
}[keyof typeof api];

/** The route a name stands for. */
export function routeNamed(name: RouteName): ApiRoute {
  const [area, call] = name.split('.') as [keyof typeof api, string];
  return (api[area] as Record<string, ApiRoute>)[call]!;
}

/** How a call ended, as plain data (it crosses from a page to the test). */
export type Outcome =
  | { ok: true; value: unknown }
  | {
      ok: false;
      name: string;
      code?: string;
      status?: number;
      message: string;
      fieldErrors?: Record<string, string[]>;
    };

/** Turns a call's promise into its outcome: what a subject does on its platform. */
export async function outcomeOf(pending: Promise<unknown>): Promise<Outcome> {
  try {
    return { ok: true, value: await pending };
  } catch (error) {
    const e = error as Error & { code?: string; status?: number; fieldErrors?: unknown };
    return {
      ok: false,
      name: e.name,
      message: e.message,
      ...(e.code === undefined ? {} : { code: e.code }),
      ...(e.status === undefined ? {} : { status: e.status }),
      ...(e.fieldErrors === undefined
        ? {}
        : { fieldErrors: e.fieldErrors as Record<string, string[]> }),
    };
  }
}
