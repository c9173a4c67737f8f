import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { selectContracts, selectSelectedContract } from '../projects/projects-api';
import { contractSelected } from '../projects/projects-slice';

/**
 * A package opened by its address belongs to a project: the first time it loads, that project
 * becomes the selected one (a mailed link may name a package of another project). When the
 * person later picks another project, the package is left and the list of that project shows.
 */
export function usePackageContract(
  urlSlug: string | undefined,
  packageContract: string | undefined,
  listPath: string,
) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const selected = useAppSelector(selectSelectedContract)?.slug;
  const contracts = useAppSelector(selectContracts);
  const settledFor = useRef<string | null>(null);

  useEffect(() => {
    if (!urlSlug || !packageContract || !selected) return;
    if (settledFor.current !== urlSlug) {
      settledFor.current = urlSlug;
      if (packageContract !== selected && contracts.some((c) => c.slug === packageContract)) {
        dispatch(contractSelected(packageContract));
      }
      return;
    }
    if (packageContract !== selected) void navigate(listPath, { replace: true });
  }, [urlSlug, packageContract, selected, contracts, dispatch, navigate, listPath]);
}
