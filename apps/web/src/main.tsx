import { createRoot } from 'react-dom/client';
import { startApp } from './app/start-app';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

void startApp(createRoot(root));
