/** Swift credentials for the tests' Swift leg, as scripts/swift-saio.sh prints them. */
export interface SwiftTestEnvironment {
  readonly authUrl: string;
  readonly user: string;
  readonly key: string;
  readonly tempUrlKey: string;
}

/**
 * Reads SWIFT_AUTH_URL, SWIFT_USER, SWIFT_KEY (and SWIFT_TEMPURL_KEY, else a fixed test key
 * that the driver sets on the account). Null when SWIFT_AUTH_URL is unset: the Swift leg is
 * then skipped. Only tests read the environment; the app gets its settings from config.ts.
 */
export function swiftEnvironment(
  env: NodeJS.ProcessEnv = process.env,
): SwiftTestEnvironment | null {
  const authUrl = env.SWIFT_AUTH_URL;
  if (!authUrl) return null;
  const user = env.SWIFT_USER;
  const key = env.SWIFT_KEY;
  if (!user || !key)
    throw new Error('SWIFT_AUTH_URL is set: SWIFT_USER and SWIFT_KEY are needed too');
  return { authUrl, user, key, tempUrlKey: env.SWIFT_TEMPURL_KEY || 'filerunner-conformance-key' };
}

/** The server settings that store a test server's objects on that Swift. */
export function swiftServerSettings(swift: SwiftTestEnvironment): Record<string, string> {
  return {
    STORAGE_DRIVER: 'swift',
    SWIFT_AUTH_URL: swift.authUrl,
    SWIFT_USER: swift.user,
    SWIFT_KEY: swift.key,
    SWIFT_TEMPURL_KEY: swift.tempUrlKey,
  };
}
