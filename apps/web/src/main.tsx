import { nextTask } from './app/next-task';

/**
 * The app starts in steps, each in a task of its own: React, the store, the routes, the router
 * (which starts loading the first screen), the frame (theme, toasts), then the first render. Run
 * as one, they held a phone's slow CPU for a third of a second before anything answered a tap; in
 * steps the browser gets a turn between them. index.html preloads every step's scripts
 * (build/boot-preload.ts), so the steps wait on the CPU, never the network. Each step is a module
 * the app splits at anyway (a step at a module of its own makes the bundler cut the login page's
 * scripts finer).
 */
async function boot(rootElement: HTMLElement) {
  const { createRoot } = await import('react-dom/client');
  await nextTask();
  await import('./app/store');
  await nextTask();
  const { appRouter } = await import('./app/router');
  await nextTask();
  appRouter();
  await nextTask();
  const { startApp } = await import('./app/start-app');
  await nextTask();
  await startApp(createRoot(rootElement));
}

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
void boot(root);
