import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, stubApi } from '../../test/api-stub';
import type { CourseFile } from '../lib/api-types';
import { CourseFilePicker } from './course-file-picker';

// Choosing a course file for a lesson (decision 028): by its own name,
// searched, by keyboard; a lesson's video is chosen among videos only.

const HANDOUT: CourseFile = {
  key: 'ab12', fileName: 'files/ab12.pdf', contentType: 'application/pdf', bytes: 348_160, originalName: 'Aftercare sheet.pdf',
  uploadedBy: 'editor-1', createdAt: '2026-11-25T10:15:00Z', format: 'PDF', usedBy: [],
};
const VIDEO: CourseFile = { ...HANDOUT, key: 'cd34', fileName: 'files/cd34.webm', contentType: 'video/webm', originalName: 'Peel demo.webm', format: 'WebM' };

function Lesson({ videos = false }: { videos?: boolean }) {
  const [file, setFile] = useState('');
  return <CourseFilePicker id="lesson-file" value={file} onChoose={(chosen) => setFile(chosen.fileName)} videos={videos} />;
}

describe('CourseFilePicker', () => {
  it('reads the files when opened, finds one by name and chooses it by keyboard', async () => {
    const user = userEvent.setup();
    const api = stubApi({ 'GET /api/admin/course-files': () => jsonResponse(200, { files: [VIDEO, HANDOUT] }) });
    render(<Lesson />);
    expect(screen.getByText('No file chosen yet.')).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Choose the file' }));
    const list = await screen.findByRole('list', { name: 'Course files to choose as the file' });
    expect(within(list).getAllByRole('button').map((button) => button.textContent)).toEqual(['Peel demo.webmWebM, 340 KB', 'Aftercare sheet.pdfPDF, 340 KB']);
    await user.type(screen.getByRole('searchbox', { name: 'Search the course files by name' }), 'aftercare');
    expect(screen.getByText('1 file')).toBeInTheDocument();
    await user.tab();
    expect(within(list).getByRole('button', { name: /Aftercare sheet\.pdf/ })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('button', { name: 'Change the file' })).toHaveFocus();
    expect(screen.getByText('Aftercare sheet.pdf')).toBeInTheDocument();
  });

  it('offers only videos for a lesson’s video, and Escape closes it', async () => {
    const user = userEvent.setup();
    stubApi({ 'GET /api/admin/course-files': () => jsonResponse(200, { files: [VIDEO, HANDOUT] }) });
    render(<Lesson videos />);
    await user.click(screen.getByRole('button', { name: 'Choose the video' }));
    const list = await screen.findByRole('list', { name: 'Course files to choose as the video' });
    expect(within(list).getAllByRole('button')).toHaveLength(1);
    await user.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: 'Choose the video' })).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Choose the video' })).toHaveAttribute('aria-expanded', 'false');
  });
});
