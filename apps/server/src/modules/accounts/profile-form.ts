import type { FastifyRequest } from 'fastify';
import { limits } from '@filerunner/protocol';
import { ApiError } from '../../http/errors';
import type { AvatarUpload } from './profile.service';

/**
 * Reads the profile form: text fields, and the avatar file cut off one byte past the limit so
 * an oversize upload is recognised without being read whole.
 */
export async function readProfileForm(
  request: FastifyRequest,
): Promise<{ fields: Record<string, string>; avatar: AvatarUpload | undefined }> {
  const fields: Record<string, string> = {};
  let avatar: AvatarUpload | undefined;
  const parts = request.parts({
    limits: { fileSize: limits.avatarMaxBytes, files: 1, fields: 20 },
  });
  try {
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== 'avatar') {
          part.file.resume();
          continue;
        }
        const data = await part.toBuffer();
        // A form with no file chosen still carries an empty avatar part.
        if (data.length > 0 || part.file.truncated)
          avatar = { data, truncated: part.file.truncated };
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    // A truncated or garbled body is the client's fault: busboy's parse errors carry no status.
    if ((error as { statusCode?: number }).statusCode) throw error;
    throw ApiError.fields({ non_field_errors: ['The form data could not be read.'] });
  }
  return { fields, avatar };
}
