import { api, type PinSent, type PinVerified } from '@filerunner/protocol';
import { apiSlice, mutation } from '../../app/api';
import { asApiError } from '../../app/api-client';

/**
 * The PIN calls: a signed-in recipient uses the plain ones, the holder of a mailed link the
 * `_external` ones with its key. Nothing is cached: a PIN answer is good for one try.
 */
export const pinApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    sendPin: mutation(build, api.pin.send),
    sendPinExternal: mutation(build, api.pin.sendExternal),
    verifyPin: mutation(build, api.pin.verify),
    verifyPinExternal: mutation(build, api.pin.verifyExternal),
  }),
});

export const {
  useSendPinMutation,
  useSendPinExternalMutation,
  useVerifyPinMutation,
  useVerifyPinExternalMutation,
} = pinApi;

/** Who is asking: the signed-in user (no key) or the holder of the link's key. */
export interface PinCaller {
  slug: string;
  /** The mailed link's key; when given, the external calls are made with it. */
  accessKey?: string | undefined;
}

/** The two PIN actions for one caller, whichever kind it is; each rejects with the call's error. */
export function usePinCalls({ slug, accessKey }: PinCaller) {
  const [sendInternal, sendingInternal] = useSendPinMutation();
  const [sendExternal, sendingExternal] = useSendPinExternalMutation();
  const [verifyInternal, verifyingInternal] = useVerifyPinMutation();
  const [verifyExternal, verifyingExternal] = useVerifyPinExternalMutation();
  const params = { slug };
  return {
    send: (): Promise<PinSent> =>
      accessKey === undefined
        ? sendInternal({ params, body: {} }).unwrap()
        : sendExternal({ params, body: { key: accessKey } }).unwrap(),
    verify: (code: string): Promise<PinVerified> =>
      accessKey === undefined
        ? verifyInternal({ params, body: { code } }).unwrap()
        : verifyExternal({ params, body: { code, key: accessKey } }).unwrap(),
    busy:
      sendingInternal.isLoading ||
      sendingExternal.isLoading ||
      verifyingInternal.isLoading ||
      verifyingExternal.isLoading,
  };
}

/**
 * What to tell the person about a refused PIN call: the server's `detail.error` (or a plain
 * `detail`), else `fallback` (also when no answer came, or the server failed).
 */
export function pinFailureMessage(error: unknown, fallback: string): string {
  const failed = asApiError(error);
  if (!failed || failed.status === 0) return fallback;
  const body = failed.body;
  if (body && typeof body === 'object' && 'detail' in body) {
    const detail = (body as { detail: unknown }).detail;
    if (typeof detail === 'string' && failed.status < 500) return detail;
    if (detail && typeof detail === 'object' && 'error' in detail) {
      const message = (detail as { error: unknown }).error;
      if (typeof message === 'string' && message) return message;
    }
  }
  return fallback;
}
