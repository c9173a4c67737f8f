/**
 * What the bench page (page.ts) offers the bench through `page.evaluate`, in types free of the
 * DOM, so the bench's Node side can call it typed.
 */

/** Files to write into the origin-private file system (opfs-writer.ts). */
export type WriteOrder =
  | { kind: 'file'; path: string; size: number }
  | { kind: 'folder'; path: string; first: number; count: number; size: number; perFolder: number };

/** One upload through the engine: its time and what it sent. */
export type EngineRun = {
  seconds: number;
  files: number;
  workers: number;
  slab_files: boolean;
  objects: { segments: number; slabs: number; form_posts: number };
  requests: { storage: number; api: number };
};

/** One bare transfer: plain PUTs to a signed prefix grant. */
export type BareRun = { seconds: number; files?: number; requests: { storage: number } };

/** One request, hash or ledger write of the engine, in ms since the page's time origin. */
export type TimelineEvent = {
  kind: 'storage' | 'api' | 'hash' | 'pack' | 'ledger';
  /** The request's method and path, the hashed file's path, the packed slab, the ledger's key. */
  name: string;
  start: number;
  end: number;
  ok: boolean;
};

export interface UploadBenchPage {
  login(email: string, password: string): Promise<void>;
  startTimeline(): void;
  takeTimeline(): TimelineEvent[];
  writeFiles(order: WriteOrder): Promise<void>;
  pick(path: string): Promise<{ files: number; bytes: number }>;
  pickInput(path: string, inputId: string): { files: number; bytes: number };
  prepareEngine(path: string): Promise<void>;
  runEngine(path: string): Promise<EngineRun>;
  prepareBare(path: string, slices?: number): Promise<void>;
  bareSlices(path: string): Promise<BareRun>;
  barePerFile(path: string, parallel: number): Promise<BareRun>;
}
