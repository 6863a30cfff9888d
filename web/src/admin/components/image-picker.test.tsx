import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonResponse, stubApi } from '../../test/api-stub';
import type { MediaItem } from '../lib/api-types';
import { AdminFormView } from './admin-form';
import { TextGroupField } from './compound-fields';
import { useAdminForm } from './use-admin-form';

// Choosing a content image from the media library: the uploads by the name
// they were uploaded with and the content pack's images, searched by name,
// chosen by mouse or keyboard, with an upload's alt text filling a blank one.

const UPLOAD: MediaItem = {
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
const PACK = [
  { fileName: 'brand/logo.svg', width: 240, height: 60 },
  { fileName: 'courses/chemical-peels.svg', width: 800, height: 600 },
];

function Picture({ alt = '' }: { alt?: string }) {
  const form = useAdminForm({
    schema: z.object({ image: z.object({ file: z.string(), alt: z.string() }) }),
    defaultValues: { image: { file: '', alt } },
    labels: { image: 'Image' },
    send: async () => 'Saved.',
  });
  return (
    <AdminFormView form={form} submit="Save">
      <TextGroupField form={form} name="image" parts={[{ name: 'file', image: 'image', alt: 'alt' }, { name: 'alt', label: 'Alternative text' }]} />
    </AdminFormView>
  );
}

function renderPicture(alt?: string) {
  const api = stubApi({ 'GET /api/admin/media': () => jsonResponse(200, { media: [UPLOAD], limit: 500, pack: PACK }) });
  render(<Picture alt={alt} />);
  return api;
}

describe('the image picker', () => {
  it('reads the library only when opened, lists uploads by their own name and the pack’s images, and finds one by name', async () => {
    const user = userEvent.setup();
    const api = renderPicture();
    expect(screen.getByText('No image chosen yet.')).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
    const open = screen.getByRole('button', { name: 'Choose the image' });
    await user.click(open);
    expect(open).toHaveAttribute('aria-expanded', 'true');
    const search = screen.getByRole('searchbox', { name: 'Search the media library by name' });
    expect(search).toHaveFocus();
    const list = await screen.findByRole('list', { name: 'Images to choose as the image' });
    expect(within(list).getAllByRole('button').map((button) => button.textContent)).toEqual([
      'Couch by the window.jpg1200 × 800 px',
      'brand/logo.svg240 × 60 px',
      'courses/chemical-peels.svg800 × 600 px',
    ]);
    await user.type(search, 'PEELS');
    expect(within(list).getAllByRole('button')).toHaveLength(1);
    expect(screen.getByText('1 image')).toBeInTheDocument();
    await user.clear(search);
    await user.type(search, 'window couch');
    expect(within(list).getByRole('button', { name: /Couch by the window/ })).toBeInTheDocument();
    await user.clear(search);
    await user.type(search, 'nothing like it');
    expect(screen.getByText('0 images')).toBeInTheDocument();
  });

  it('is used by keyboard: arrows move between images, Enter chooses, the focus goes back, and an upload’s alt text fills a blank one', async () => {
    const user = userEvent.setup();
    renderPicture();
    screen.getByRole('button', { name: 'Choose the image' }).focus();
    await user.keyboard('{Enter}');
    await screen.findByRole('list', { name: 'Images to choose as the image' });
    await user.tab();
    expect(screen.getByRole('button', { name: /Couch by the window/ })).toHaveFocus();
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowUp}');
    expect(screen.getByRole('button', { name: /brand\/logo\.svg/ })).toHaveFocus();
    await user.keyboard('{End}');
    expect(screen.getByRole('button', { name: /chemical-peels/ })).toHaveFocus();
    await user.keyboard('{Home}{Enter}');
    const change = screen.getByRole('button', { name: 'Change the image' });
    expect(change).toHaveFocus();
    expect(change).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByText(/^Chosen image:/)).toHaveTextContent('Chosen image: Couch by the window.jpg');
    expect(screen.getByText('Chosen: Couch by the window.jpg.')).toBeInTheDocument();
    expect(screen.getByLabelText('Alternative text')).toHaveValue(UPLOAD.alt);
  });

  it('keeps alt text already typed, takes none from a pack image, and closes on Escape', async () => {
    const user = userEvent.setup();
    renderPicture('Our own words');
    await user.click(screen.getByRole('button', { name: 'Choose the image' }));
    await user.click(await screen.findByRole('button', { name: /Couch by the window/ }));
    expect(screen.getByLabelText('Alternative text')).toHaveValue('Our own words');
    await user.click(screen.getByRole('button', { name: 'Change the image' }));
    expect(screen.getByRole('button', { name: /Couch by the window/ })).toHaveAttribute('aria-pressed', 'true');
    await user.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: 'Change the image' })).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Change the image' })).toHaveAttribute('aria-expanded', 'false');
  });
});
