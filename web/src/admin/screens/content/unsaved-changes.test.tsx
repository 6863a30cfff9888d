import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse } from '../../../test/api-stub';
import { CONTENT_LIST, contentDocument, courseBody } from '../../test/content-fixtures';
import { staffMember } from '../../test/fixtures';
import { address, renderAdmin } from '../../test/render-admin';

const COURSE_PATH = '/api/admin/content/course/chemical-peels';

function renderCourse() {
  return renderAdmin('/content/course/chemical-peels/', staffMember('editor'), {
    'GET /api/admin/content': () => jsonResponse(200, { documents: CONTENT_LIST }),
    [`GET ${COURSE_PATH}`]: () => jsonResponse(200, contentDocument(courseBody())),
    'POST /api/admin/content/markdown': () => jsonResponse(200, { html: '<p>Preview</p>' }),
    [`PUT ${COURSE_PATH}/draft`]: () => jsonResponse(200, { draft_saved_at: '2026-11-21T09:30:00Z' }),
  });
}

const leaveForTheList = () => userEvent.click(screen.getByRole('link', { name: 'Content list: Courses' }));

describe('changes not saved', () => {
  it('are not in the way when there are none', async () => {
    renderCourse();
    await screen.findByLabelText(/^Price/);
    await leaveForTheList();
    expect(await screen.findByRole('heading', { level: 1, name: 'Content' })).toBeInTheDocument();
    expect(address()).toBe('/content/?kind=course');
  });

  it('hold back leaving by a link, which asks first with the focus on the question', async () => {
    renderCourse();
    const price = await screen.findByLabelText(/^Price/);
    await userEvent.clear(price);
    await userEvent.type(price, '499.99');
    await leaveForTheList();
    const question = screen.getByRole('alertdialog', { name: 'Your changes are not saved. Leave this page and lose them?' });
    expect(question).toHaveFocus();
    expect(address()).toBe('/content/course/chemical-peels/');

    await userEvent.click(screen.getByRole('button', { name: 'Stay and keep editing' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(screen.getByLabelText(/^Price/)).toHaveValue('499.99');

    await leaveForTheList();
    await userEvent.click(screen.getByRole('button', { name: 'Leave without saving' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Content' })).toBeInTheDocument();
    expect(address()).toBe('/content/?kind=course');
  });

  it('are nothing to lose once saved as a draft', async () => {
    renderCourse();
    const price = await screen.findByLabelText(/^Price/);
    await userEvent.clear(price);
    await userEvent.type(price, '499.99');
    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    expect(await screen.findByText(/^Draft saved/)).toBeInTheDocument();
    await leaveForTheList();
    expect(await screen.findByRole('heading', { level: 1, name: 'Content' })).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });
});
