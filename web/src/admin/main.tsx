import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, createRoutesFromElements, RouterProvider } from 'react-router';
import { adminRoutes } from './admin-app';
import { BASENAME } from './paths';
// The site's colours, elements, buttons and form fields, then the back office's own.
import '../app/styles/base.css';
import '../app/styles/forms.css';
import './admin.css';

// The back office's entry (decision 017): a client-rendered app of its own,
// built by vite.admin.config.ts; no public page loads any of it.

const root = document.getElementById('root');
if (root) {
  const router = createBrowserRouter(createRoutesFromElements(adminRoutes), { basename: BASENAME });
  createRoot(root).render(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  );
}
