// Builds the upload bench's page, which the bench serves from the server under test (as its
// WEB_DIST). A plain object: vite is installed for apps/web, not resolvable from here.
export default {
  base: '/',
  logLevel: 'warn',
  build: { emptyOutDir: true, sourcemap: false, target: 'es2023' },
};
