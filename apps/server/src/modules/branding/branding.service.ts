import sharp from 'sharp';
import {
  adminMessages,
  aliasOf,
  brandingColours,
  limits,
  type Branding,
  type brandingRequest,
  type Contract,
} from '@filerunner/protocol';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { Database } from '../../db/client';
import type { BrandingRow, ContractRow } from '../../db/rows';
import { ApiError } from '../../http/errors';
import { brandingOfContract, brandingsOfContracts, saveBranding } from './branding.repository';

/** Default colours cycle through the palette so neighbouring contracts look different. */
export const defaultColour = (contractId: number) =>
  brandingColours[contractId % brandingColours.length]!;

function present(row: BrandingRow, contract: Pick<ContractRow, 'slug'>): Branding {
  return {
    name: row.name,
    slug: contract.slug,
    alias: row.alias,
    colour: row.colour,
    logo: row.logo ? `data:image/jpeg;base64,${row.logo.toString('base64')}` : null,
  };
}

/**
 * The saved brandings of the given contracts, leaving out those whose custom branding the
 * operator has disabled (the client shows the default branding for them).
 */
export async function brandingsOf(
  db: Database,
  contractList: Pick<Contract, 'id' | 'slug' | 'branding_enabled'>[],
): Promise<Branding[]> {
  const shown = contractList.filter((c) => c.branding_enabled);
  if (shown.length === 0) return [];
  const rows = await brandingsOfContracts(
    db,
    shown.map((c) => c.id),
  );
  return rows.map((row) =>
    present(
      row,
      shown.find((c) => c.id === row.contractId)!,
    ),
  );
}

/** The contract's saved branding; null when there is none or custom branding is disabled. */
export async function brandingOf(db: Database, contract: ContractRow): Promise<Branding | null> {
  if (!contract.brandingEnabled) return null;
  const row = await brandingOfContract(db, contract.id);
  return row ? present(row, contract) : null;
}

/**
 * A logo upload as a 160 px square JPEG. Anything sharp cannot read as an image, that is over
 * 5 MB, or whose header announces more than `limits.imageMaxPixels` (checked before anything is
 * decoded) is refused with the spec's message.
 */
export async function logoJpeg(base64: string): Promise<Buffer> {
  const data = Buffer.from(base64.replace(/^data:[^;,]*;base64,/, ''), 'base64');
  if (data.length === 0 || data.length > limits.logoMaxBytes)
    throw ApiError.fields({ logo: [adminMessages.logoRejected] });
  try {
    return await sharp(data, { limitInputPixels: limits.imageMaxPixels })
      .rotate()
      .resize(limits.logoSizePx, limits.logoSizePx, { fit: 'cover' })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 85 })
      .toBuffer();
  } catch {
    throw ApiError.fields({ logo: [adminMessages.logoRejected] });
  }
}

export async function updateBranding(
  ctx: AppContext,
  contract: ContractRow,
  input: z.infer<typeof brandingRequest>,
): Promise<Branding> {
  const current = await brandingOfContract(ctx.db, contract.id);
  const name = input.name ?? current?.name ?? contract.name.slice(0, limits.brandingNameMax);
  const next = {
    contractId: contract.id,
    name,
    alias: input.alias ?? current?.alias ?? aliasOf(name),
    colour: input.colour ?? current?.colour ?? defaultColour(contract.id),
    logo:
      input.logo === undefined
        ? (current?.logo ?? null)
        : input.logo === null
          ? null
          : await logoJpeg(input.logo),
    updatedAt: new Date(),
  };
  return present(await saveBranding(ctx.db, next), contract);
}
