import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, stubApi } from '../../../test/api-stub';
import { MemoryRouter } from 'react-router';
import { ScormPackage } from './scorm-package';

const PATH = 'GET /api/admin/courses/c-peels/package';
const UPLOAD = 'POST /api/admin/courses/c-peels/package';
const LIMITS = { uploadMegabytes: 50, unpackedMegabytes: 200, files: 2000 };
const KEPT = {
  courseId: 'c-peels', id: 'p1', version: '1.2', title: 'Peels in practice', launch: 'index.html', files: 3, bytes: 2_400_000,
  originalName: 'peels.zip', uploadedBy: 's1', uploadedAt: '2026-11-27T09:39:00Z',
};

describe('ScormPackage', () => {
  it('uploads a zip and shows the package kept, or the server’s reason for refusing it', async () => {
    let kept: typeof KEPT | null = null;
    const api = stubApi({
      [PATH]: () => jsonResponse(200, { package: kept, limits: LIMITS }),
      [UPLOAD]: (body) => {
        if ((body as { name: string }).name === 'bad.zip') {
          return jsonResponse(422, { error: { code: 'unprocessable', message: 'run.sh is not a kind of file a course page uses.' } });
        }
        kept = KEPT;
        return jsonResponse(201, KEPT);
      },
    });
    render(<MemoryRouter><ScormPackage courseId="c-peels" /></MemoryRouter>);
    expect(await screen.findByText('This course has no package: students study its lessons.')).toBeInTheDocument();
    const field = screen.getByLabelText(/^SCORM package/, { selector: 'input' });
    await userEvent.upload(field, new File(['PK'], 'bad.zip', { type: 'application/zip' }));
    await userEvent.click(screen.getByRole('button', { name: 'Upload the package' }));
    expect(await screen.findByText(/run\.sh is not a kind of file a course page uses\./)).toBeInTheDocument();

    await userEvent.upload(field, new File(['PK'], 'peels.zip', { type: 'application/zip' }));
    await userEvent.click(screen.getByRole('button', { name: 'Upload the package' }));
    expect(await screen.findByText('Peels in practice (SCORM 1.2)')).toBeInTheDocument();
    expect(screen.getByText('3 files, 2.3 MB, from peels.zip')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Replace the package' })).toBeInTheDocument();
    const sent = api.calls.filter((call) => call.route === UPLOAD).map((call) => (call.body as { name: string; data: string }));
    expect(sent.map((body) => [body.name, body.data])).toEqual([['bad.zip', btoa('PK')], ['peels.zip', btoa('PK')]]);
  });
});
