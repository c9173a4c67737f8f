import type { BulkResponse } from '@filerunner/protocol';
import type { Clock } from '../ports';
import { putUrl } from './grants';
import type { BulkRequestBody } from './plan';

/** Grants are renewed when less than this is left, so no request starts on a dying grant. */
const RENEW_BEFORE_MS = 5 * 60_000;

/**
 * Keeps the upload grants fresh. Storage checks a grant when a request starts, so a grant must
 * outlive the start of every request made with it: it is renewed (`bulk` again) before it runs
 * out, and at once after storage refused one (a clock that disagrees with the server's). One
 * renewal at a time: workers asking together share it.
 */
export class GrantKeeper {
  private grants: BulkResponse | null = null;
  private stale = false;
  private renewing: Promise<BulkResponse> | null = null;

  constructor(
    private readonly clock: Clock,
    /** Asks the server for grants; `body` names the batches still to send. */
    private readonly requestGrants: (
      body: BulkRequestBody,
      signal?: AbortSignal,
    ) => Promise<BulkResponse>,
    /** The batches still to send and the large files' bytes, at the moment of asking. */
    private readonly bodyNow: () => BulkRequestBody,
  ) {}

  /** Grants good for a request starting now. */
  async current(signal?: AbortSignal): Promise<BulkResponse> {
    const grants = this.grants;
    if (
      grants &&
      !this.stale &&
      grants.tempurl_data.expires * 1000 - this.clock.now() > RENEW_BEFORE_MS
    ) {
      return grants;
    }
    this.renewing ??= this.requestGrants(this.bodyNow(), signal)
      .then((fresh) => {
        this.grants = fresh;
        this.stale = false;
        return fresh;
      })
      .finally(() => {
        this.renewing = null;
      });
    return this.renewing;
  }

  /**
   * The signed PUT URL of an object of the plan, on the `turn()`-th storage host. Every `bulk`
   * call lists the objects still to send, so the grants hold it; grants asked for before it was
   * due again (a stored object that turned out missing) are renewed once, which lists it.
   * @throws Error when fresh grants hold none either: the server signs only what was listed.
   */
  async putUrlOf(name: string, turn: () => number, signal?: AbortSignal): Promise<string> {
    const url = putUrl((await this.current(signal)).tempurl_data, name, turn());
    if (url) return url;
    this.markStale();
    const renewed = putUrl((await this.current(signal)).tempurl_data, name, turn());
    if (!renewed) throw new Error(`the upload grants hold no PUT for ${name}`);
    return renewed;
  }

  /** Storage refused a grant: the next request asks for new ones. */
  markStale(): void {
    this.stale = true;
  }
}
