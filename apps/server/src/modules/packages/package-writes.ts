import { sendMessages } from '@filerunner/protocol';
import type { Database } from '../../db/client';
import type { WriteAdmission } from '../../storage';
import { PackageDeclaration, undeclaredObject } from './declared-objects';
import { declaredFilesOf, packageOfObject } from './packages.repository';
import { packageSlugOfObject } from './object-names';

/** Declarations kept in memory: a package's files never change after it is created. */
const DECLARATIONS_KEPT = 64;

/**
 * What the embedded store may let a grant write under a package: only objects the engine names
 * for the package's declared files, none larger than its file or segment, and all of them
 * together within the declared size (see PackageDeclaration). Objects outside any package's
 * prefix are not the packages' to bound.
 */
export function packageWriteAdmission(db: Database) {
  const declarations = new Map<number, Promise<PackageDeclaration>>();
  const declarationOf = (packageId: number) => {
    let declaration = declarations.get(packageId);
    if (!declaration) {
      declaration = declaredFilesOf(db, packageId).then((files) => new PackageDeclaration(files));
      declarations.set(packageId, declaration);
      declaration.catch(() => declarations.delete(packageId));
      if (declarations.size > DECLARATIONS_KEPT) {
        declarations.delete(declarations.keys().next().value!);
      }
    }
    return declaration;
  };

  return async (container: string, key: string): Promise<WriteAdmission | null> => {
    if (!packageSlugOfObject(key)) return null;
    const pkg = await packageOfObject(db, key);
    if (!pkg || pkg.container !== container || !key.startsWith(pkg.objectPrefix)) {
      return { refused: undeclaredObject };
    }
    if (pkg.status !== 'uploading') return { refused: sendMessages.notUploading };
    const declaration = await declarationOf(pkg.id);
    const allowance = declaration.allowanceFor(key.slice(pkg.objectPrefix.length));
    if ('refused' in allowance) return allowance;
    return {
      maxBytes: allowance.maxBytes,
      budget: {
        prefix: pkg.objectPrefix,
        bytes: declaration.bytes,
        objects: declaration.objects,
      },
    };
  };
}
