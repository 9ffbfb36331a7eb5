import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { preloadCurrentScreen } from './routes.tsx';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// In parallel with the session check: the screen the address asks for.
preloadCurrentScreen();

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
