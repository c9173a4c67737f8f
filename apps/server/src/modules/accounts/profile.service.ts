import {
  isTimeZone,
  limits,
  messages,
  normalizeMobile,
  type FieldErrors,
} from '@filerunner/protocol';
import type { AppContext } from '../../context';
import { ApiError } from '../../http/errors';
import { updateUser } from './accounts.repository';
import { reencodedAvatar } from './avatar-image';
import type { UserRow } from './sessions';

export interface AvatarUpload {
  data: Buffer;
  truncated: boolean;
}

export interface ProfileChanges {
  first_name: string;
  last_name: string;
  mobile?: string | undefined;
  timezone?: string | undefined;
  clear_avatar?: string | undefined;
}

/** PNG and JPEG are told apart by their first bytes, not by what the browser claims. */
function imageTypeOf(data: Buffer): 'image/png' | 'image/jpeg' | null {
  if (data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return 'image/png';
  }
  if (data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  return null;
}

export async function updateProfile(
  ctx: AppContext,
  user: UserRow,
  changes: ProfileChanges,
  avatar: AvatarUpload | undefined,
): Promise<UserRow> {
  const errors: FieldErrors = {};
  const mobile = changes.mobile ? normalizeMobile(changes.mobile) : null;
  if (changes.mobile && !mobile) errors.mobile = [messages.profile.invalidMobile];
  if (changes.timezone && !isTimeZone(changes.timezone)) errors.timezone = ['Unknown timezone.'];
  let avatarType: 'image/png' | 'image/jpeg' | null = null;
  let avatarImage: Buffer | null = null;
  if (avatar) {
    avatarType = imageTypeOf(avatar.data);
    if (avatar.truncated || avatar.data.length > limits.avatarMaxBytes) {
      errors.avatar = [`${messages.profile.avatarTooLarge} 1 MB`];
    } else if (!avatarType) {
      errors.avatar = [messages.profile.avatarType];
    } else {
      avatarImage = await reencodedAvatar(avatar.data, avatarType);
      if (!avatarImage) errors.avatar = [messages.profile.avatarUnreadable];
    }
  }
  if (Object.keys(errors).length) throw ApiError.fields(errors);

  const update: Partial<UserRow> = {
    firstName: changes.first_name,
    lastName: changes.last_name,
    mobile,
    // An empty zone is no choice: dates then show in the browser's zone, and mails in UTC.
    timezone: changes.timezone ?? user.timezone,
  };
  if (avatarImage && avatarType) {
    Object.assign(update, {
      avatar: avatarImage,
      avatarType,
      avatarVersion: user.avatarVersion + 1,
    });
  } else if (changes.clear_avatar === 'true') {
    Object.assign(update, {
      avatar: null,
      avatarType: null,
      avatarVersion: user.avatarVersion + 1,
    });
  }
  return updateUser(ctx.db, user.id, update);
}
