import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// The global styles first: every feature's own stylesheet comes after them.
import './styles.css';
import { App } from './App.tsx';
import { registerServiceWorker } from './pwa/register.ts';
import { preloadCurrentScreen } from './routes.tsx';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// In parallel with the session check: the screen the address asks for.
preloadCurrentScreen();
// The app shell kept on the device, so the vault opens offline (web/public/sw.js).
registerServiceWorker();

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
