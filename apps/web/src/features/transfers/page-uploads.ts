import type { UploadController } from './upload-controller';

/**
 * The page's uploads, with the transfer engine loaded on first need: the login page, where most
 * visits start, never downloads it. Until something loads it there is no upload to act on.
 */
export interface PageUploads {
  /** The controller, loading the engine on the first call. */
  load(): Promise<UploadController>;
  /** The controller if it is loaded, else null (and then no upload exists on this page). */
  loaded(): UploadController | null;
}

/** Uploads whose controller `create` makes (importing the engine) when first needed. */
export function lazyUploads(create: () => Promise<UploadController>): PageUploads {
  let controller: UploadController | null = null;
  let loading: Promise<UploadController> | null = null;
  return {
    loaded: () => controller,
    load: () =>
      (loading ??= create().then(
        (created) => (controller = created),
        (error: unknown) => {
          // A failed download of the engine (offline) is tried again by the next need.
          loading = null;
          throw error;
        },
      )),
  };
}

/** Uploads with their controller at hand (tests). */
export function readyUploads(controller: UploadController): PageUploads {
  return { loaded: () => controller, load: () => Promise.resolve(controller) };
}

/**
 * Runs `act` with the controller: at once when it is loaded (a click's user activation, which
 * a permission prompt needs, is kept), else after loading it.
 */
export function withUploads<T>(
  uploads: PageUploads,
  act: (controller: UploadController) => T,
): T | Promise<T> {
  const controller = uploads.loaded();
  return controller ? act(controller) : uploads.load().then(act);
}
