/** Business constants and limits shared by the server and the web app. */
export const limits = {
  avatarMaxBytes: 1_000_000,
  avatarTypes: ['image/png', 'image/jpeg'] as readonly string[],
  brandingNameMax: 50,
  logoMaxBytes: 5_000_000,
  /**
   * Pixels an uploaded image (avatar, logo) may have. Images are decoded to be re-encoded, at
   * up to 4 bytes a pixel: this keeps one decode near 200 MB, and a small file announcing a huge
   * image (a PNG "bomb" of 25,000 x 25,000 compresses to a few hundred kB) is refused from its
   * header, before anything is decoded. A 48 MP phone photo still fits.
   */
  imageMaxPixels: 50_000_000,
  /** An avatar is kept at most this wide and high: it is shown as a small circle. */
  avatarSizePx: 512,
  logoSizePx: 160,
  packageNameMax: 255,
  receivedPageSize: 15,
  sentPageSize: 20,
  activityPageSize: 15,
  pinLength: 6,
  apiTimeoutMs: 60_000,
  apiRetries: 3,
  sessionWarningSeconds: 1800,
  toastDelayMs: 5000,
  collapseWidthPx: 1280,
  preferredCountries: ['gb', 'us', 'au'] as readonly string[],
  userSearchMinChars: 3,
  uploadWorkersMax: 50,
  storageGroupsMax: 20,
  storageGroupNameMax: 50,
  /**
   * Valid (unrevoked) API keys one user may hold. A key is a standing credential: a person
   * needs one per script or machine, a few at most, and the Profile lists them all on one page;
   * past this, an old key should be revoked rather than another added.
   */
  apiKeysLiveMax: 50,
  /** A package within this many hours of its expiry is 'Expiring'. */
  expiringSoonHours: 24,
} as const;

/** The header every mutating call made with a session cookie must carry (the CSRF guard). */
export const CLIENT_VERSION_HEADER = 'x-client-version';
/** Header with which a request authenticates by API key: `Authorization: Api-Key <key>`. */
export const API_KEY_SCHEME = 'Api-Key';
/**
 * A create that carries this header and is repeated (a retry after a timeout or a server fault)
 * answers the first result instead of creating again; the key is the client's, one per create.
 */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
