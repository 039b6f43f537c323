/** Ocelot Studio's entry point (bundled by studio/build.mjs). */
import { createRoot } from 'react-dom/client';
import { App } from './app/App.js';
import './styles.css';

const root = document.getElementById('root');
if (root) createRoot(root).render(<App />);
