// Builds the lab page that the transfer-browser e2e suite loads from the real server (as its
// WEB_DIST). A plain object: vite is installed for apps/web, not resolvable from here.
export default {
  base: '/',
  logLevel: 'warn',
  build: { emptyOutDir: true, sourcemap: false, target: 'es2023' },
};
