import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse } from '../../../test/api-stub';
import type { CourseFile } from '../../lib/api-types';
import { staffMember } from '../../test/fixtures';
import { callsTo, renderAdmin } from '../../test/render-admin';

// The media area's Course files tab (decision 028): each file by its own
// name with its type, size, date and the courses that use it; an upload
// sent as the file's own bytes; a removal the server refuses for a file in
// use, in its own words.

export const HANDOUT: CourseFile = {
  key: 'ab12',
  fileName: 'files/ab12.pdf',
  contentType: 'application/pdf',
  bytes: 348_160,
  originalName: 'Aftercare sheet.pdf',
  uploadedBy: 'editor-1',
  createdAt: '2026-11-25T10:15:00Z',
  format: 'PDF',
  usedBy: [
    { courseId: 'peels-online', title: 'Chemical peels online', published: true },
    { courseId: 'anatomy', title: 'Anatomy', published: false },
  ],
};
const VIDEO: CourseFile = { ...HANDOUT, key: 'cd34', fileName: 'files/cd34.webm', contentType: 'video/webm', bytes: 12 * 1024 * 1024, originalName: 'Peel demo.webm', format: 'WebM', usedBy: [] };

function renderFiles(answers: Parameters<typeof renderAdmin>[2] = {}) {
  return renderAdmin('/media/course-files/', staffMember('editor'), {
    'GET /api/admin/course-files': () => jsonResponse(200, { files: [HANDOUT, VIDEO] }),
    ...answers,
  });
}

describe('the course files', () => {
  it('lists each file by its own name, with its type, size and the courses that use it', async () => {
    renderFiles();
    const table = await screen.findByRole('table', { name: 'Course files' });
    expect(screen.getByRole('link', { name: 'Course files' })).toHaveAttribute('aria-current', 'page');
    const handout = within(table).getAllByRole('row')[1]!;
    expect(within(handout).getByRole('link', { name: 'Aftercare sheet.pdf' })).toHaveAttribute('href', '/api/admin/course-files/ab12.pdf');
    expect(within(handout).getByText('340 KB')).toBeInTheDocument();
    expect(within(handout).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Chemical peels online', 'Anatomy (draft)']);
    const video = within(table).getAllByRole('row')[2]!;
    expect(within(video).getByText('12.0 MB')).toBeInTheDocument();
    expect(within(video).getByText('Not used')).toBeInTheDocument();
  });

  it('uploads a file as its own bytes with its name in the address, and lists it again', async () => {
    const user = userEvent.setup();
    const api = renderFiles({ 'POST /api/admin/course-files': () => jsonResponse(201, VIDEO) });
    const file = new File(['\x1aE\xdf\xa3webm'], 'Peel demo.webm', { type: 'video/webm' });
    await user.upload(await screen.findByLabelText(/^File/), file);
    await user.click(screen.getByRole('button', { name: 'Upload the file' }));
    expect(await screen.findByText('Uploaded Peel demo.webm (WebM, 12.0 MB).')).toBeInTheDocument();
    const sent = api.requests.find((request) => request.route === 'POST /api/admin/course-files')!;
    expect(sent.url).toBe('/api/admin/course-files?name=Peel+demo.webm');
    expect(sent.init?.body).toBe(file);
    expect((sent.init?.headers as Record<string, string>)['content-type']).toBe('application/octet-stream');
    await waitFor(() => expect(callsTo(api, 'GET /api/admin/course-files')).toHaveLength(2));
  });

  it('says why the server refused a file, and why a file in use stays', async () => {
    const user = userEvent.setup();
    const inUse = 'This file is used by Chemical peels online (published): take it out of their lessons first.';
    const api = renderFiles({
      'POST /api/admin/course-files': () => jsonResponse(422, { error: { code: 'unprocessable', message: 'This is not a file a lesson can use.' } }),
      'DELETE /api/admin/course-files/ab12.pdf': () => jsonResponse(409, { error: { code: 'conflict', message: inUse } }),
    });
    await user.upload(await screen.findByLabelText(/^File/), new File(['MZ'], 'lesson.mp4', { type: 'video/mp4' }));
    await user.click(screen.getByRole('button', { name: 'Upload the file' }));
    expect(await screen.findByText('This is not a file a lesson can use.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Remove Aftercare sheet.pdf' }));
    expect(screen.getByText('Remove Aftercare sheet.pdf for good? It cannot be brought back.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Yes, remove it' }));
    expect(await screen.findByText(inUse)).toHaveAttribute('role', 'alert');
    expect(callsTo(api, 'DELETE /api/admin/course-files/ab12.pdf')).toHaveLength(1);
  });
});
