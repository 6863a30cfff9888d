import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './app/app';
import type { PageEnvelope } from './generated/PageEnvelope';
import './app/styles.css';

const data = document.getElementById('__ENROL_DATA__')?.textContent;
const root = document.getElementById('root');
if (data && root) {
  hydrateRoot(
    root,
    <StrictMode>
      <BrowserRouter>
        <App initial={JSON.parse(data) as PageEnvelope} />
      </BrowserRouter>
    </StrictMode>,
    {
      onRecoverableError: (error) => console.error('Hydration', error),
    },
  );
}
