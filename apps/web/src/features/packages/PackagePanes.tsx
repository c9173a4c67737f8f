import { createContext, useContext, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import { useNarrowLayout } from '../shell/use-layout';

interface PaneLayout {
  /** One pane at a time: the window is too narrow for the list beside the package. */
  narrow: boolean;
  /** The address names a package: on a narrow window its pane is shown, not the list. */
  opened: boolean;
  /** Where the package's pane leads back to on a narrow window, and what it is called. */
  list: { to: string; title: string };
}

const PaneLayoutContext = createContext<PaneLayout | null>(null);

/**
 * The Inbox and Sent screens' two panes (PackageListPane, then PackageDetailPane) side by side,
 * or on a narrow window one at a time: the list, and once a package is opened, that package with
 * a way back to `list`.
 */
export function PackagePanes(props: {
  opened: boolean;
  list: { to: string; title: string };
  children: ReactNode;
}) {
  const narrow = useNarrowLayout();
  return (
    <PaneLayoutContext.Provider value={{ narrow, opened: props.opened, list: props.list }}>
      <Box
        sx={{
          display: 'flex',
          gap: 2,
          p: { xs: 1, md: 3 },
          height: '100%',
          minHeight: 0,
          boxSizing: 'border-box',
        }}
      >
        {props.children}
      </Box>
    </PaneLayoutContext.Provider>
  );
}

/**
 * How a pane is laid out: `shown` false when a narrow window shows the other pane. Outside
 * PackagePanes the panes sit side by side.
 */
export function usePaneLayout(pane: 'list' | 'detail'): PaneLayout & { shown: boolean } {
  const layout = useContext(PaneLayoutContext) ?? {
    narrow: false,
    opened: false,
    list: { to: '', title: '' },
  };
  const shown = !layout.narrow || layout.opened === (pane === 'detail');
  return { ...layout, shown };
}
