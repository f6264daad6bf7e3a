import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { trackAppOpened } from './features/system/tracking';
import './global.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

trackAppOpened(window.location.search);

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
