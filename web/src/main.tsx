import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// The global styles first: every feature's own stylesheet comes after them.
import './styles.css';
import { App } from './App.tsx';
import { preloadCurrentScreen } from './routes.tsx';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// In parallel with the session check: the screen the address asks for.
preloadCurrentScreen();

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
