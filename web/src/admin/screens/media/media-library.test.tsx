import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../test/api-stub';
import type { MediaItem } from '../../lib/api-types';
import { staffMember } from '../../test/fixtures';
import { callsTo, renderAdmin } from '../../test/render-admin';

const PHOTO: MediaItem = {
  key: 'ab12',
  fileName: 'uploads/ab12.jpg',
  contentType: 'image/jpeg',
  width: 1200,
  height: 800,
  bytes: 348_160,
  alt: 'Two students at a treatment couch',
  originalName: 'Couch by the window.jpg',
  uploadedBy: 'editor-1',
  createdAt: '2026-11-25T10:15:00Z',
};

function renderMedia(path: string, answers: Parameters<typeof renderAdmin>[2] = {}) {
  return renderAdmin(path, staffMember('editor'), {
    'GET /api/admin/media': () => jsonResponse(200, { media: [PHOTO], limit: 500, pack: [{ fileName: 'brand/logo.svg', width: 240, height: 60 }] }),
    ...answers,
  });
}

describe('the media library', () => {
  it('is one of an editor’s two sections (with Content), listing each image by its own name with its alt text, file name and size', async () => {
    renderMedia('/media/');
    const table = await screen.findByRole('table', { name: 'Images' });
    const nav = screen.getByRole('navigation', { name: 'Back office' });
    expect(within(nav).getAllByRole('link').map((link) => link.textContent)).toEqual(['Content', 'Media']);
    expect(within(table).getByRole('img', { name: PHOTO.alt })).toHaveAttribute('src', '/_next/image/?url=%2Fmedia%2Fuploads%2Fab12.jpg&w=128&q=75');
    expect(within(table).getByRole('link', { name: 'Couch by the window.jpg' })).toHaveAttribute('href', '/admin/media/ab12/');
    expect(within(table).getByText(PHOTO.alt)).toBeInTheDocument();
    expect(within(table).getByText('uploads/ab12.jpg')).toBeInTheDocument();
    expect(within(table).getByText('1200 × 800 px, 340 KB')).toBeInTheDocument();
  });

  it('names an upload by its file name when its own name was not kept, and lists the content pack’s images', async () => {
    renderMedia('/media/', { 'GET /api/admin/media': () => jsonResponse(200, { media: [{ ...PHOTO, originalName: null }], limit: 500, pack: [{ fileName: 'brand/logo.svg', width: 240, height: 60 }] }) });
    const table = await screen.findByRole('table', { name: 'Images' });
    expect(within(table).getByRole('link', { name: 'uploads/ab12.jpg' })).toBeInTheDocument();
    const pack = screen.getByRole('table', { name: 'The content pack’s images' });
    expect(within(pack).getByText('brand/logo.svg')).toBeInTheDocument();
    expect(within(pack).getByText('240 × 60 px')).toBeInTheDocument();
  });

  it('copies a file name for content to refer to', async () => {
    const user = userEvent.setup();
    renderMedia('/media/');
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await user.click(await screen.findByRole('button', { name: 'Copy the file name uploads/ab12.jpg' }));
    expect(writeText).toHaveBeenCalledWith('uploads/ab12.jpg');
    expect(await screen.findByText('Copied.')).toBeInTheDocument();
  });

  it('uploads an image with its alt text as base64 JSON, and lists it again', async () => {
    const user = userEvent.setup();
    const api = renderMedia('/media/', { 'POST /api/admin/media': () => jsonResponse(201, { ...PHOTO, key: 'cd34', fileName: 'uploads/cd34.png' }) });
    await user.upload(await screen.findByLabelText(/^Image/), new File(['PNG!'], 'couch.png', { type: 'image/png' }));
    await user.type(screen.getByLabelText(/^Alt text/), ' A couch ');
    await user.click(screen.getByRole('button', { name: 'Upload the image' }));
    expect(await screen.findByText('Uploaded uploads/cd34.png.')).toBeInTheDocument();
    expect(callsTo(api, 'POST /api/admin/media')[0]?.body).toEqual({ alt: 'A couch', name: 'couch.png', data: btoa('PNG!') });
    await waitFor(() => expect(callsTo(api, 'GET /api/admin/media')).toHaveLength(2));
    expect(screen.getByLabelText(/^Alt text/)).toHaveValue('');
  });

  it('asks for the image and its alt text before sending, in a summary that takes the focus', async () => {
    const user = userEvent.setup();
    const api = renderMedia('/media/');
    await user.click(await screen.findByRole('button', { name: 'Upload the image' }));
    const summary = await screen.findByText('There is a problem');
    await waitFor(() => expect(summary.closest('.error-summary')).toHaveFocus());
    const problems = within(summary.closest('.error-summary') as HTMLElement);
    expect(problems.getByRole('link', { name: 'Image: Choose an image to upload' })).toBeInTheDocument();
    expect(problems.getByRole('link', { name: 'Alt text: Describe the image for people who cannot see it' })).toBeInTheDocument();
    expect(callsTo(api, 'POST /api/admin/media')).toHaveLength(0);
  });

  it('says the server’s words when it refuses the file', async () => {
    const user = userEvent.setup();
    const refusal = { error: { code: 'unprocessable', message: 'Please choose a JPEG, PNG, WebP or SVG image.' } };
    renderMedia('/media/', { 'POST /api/admin/media': () => jsonResponse(422, refusal) });
    await user.upload(await screen.findByLabelText(/^Image/), new File(['%PDF'], 'leaflet.png', { type: 'image/png' }));
    await user.type(screen.getByLabelText(/^Alt text/), 'A leaflet');
    await user.click(screen.getByRole('button', { name: 'Upload the image' }));
    expect(await screen.findByText('Please choose a JPEG, PNG, WebP or SVG image.')).toBeInTheDocument();
  });

  it('changes an image’s alt text on its page', async () => {
    const user = userEvent.setup();
    const api = renderMedia('/media/ab12/', { 'PUT /api/admin/media/ab12': () => jsonResponse(200, { ...PHOTO, alt: 'Students' }) });
    const alt = await screen.findByLabelText(/^Alt text/);
    expect(alt).toHaveValue(PHOTO.alt);
    await user.clear(alt);
    await user.type(alt, 'Students');
    await user.click(screen.getByRole('button', { name: 'Save the alt text' }));
    expect(await screen.findByText('Alt text saved.')).toBeInTheDocument();
    expect(callsTo(api, 'PUT /api/admin/media/ab12')[0]?.body).toEqual({ alt: 'Students' });
  });
});
