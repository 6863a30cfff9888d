import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, type Answer } from '../../../test/api-stub';
import { CONTENT_LIST, contentDocument, courseBody } from '../../test/content-fixtures';
import { staffMember } from '../../test/fixtures';
import { callsTo, renderAdmin } from '../../test/render-admin';

const COURSE_PATH = '/api/admin/content/course/chemical-peels';

/** The server's Markdown, made plain enough to check: each line a paragraph. */
const markdown: Answer = (body) => jsonResponse(200, { html: (body as { markdown: string }).markdown.split('\n').map((line) => `<p>${line}</p>`).join('') });

function renderCourse(answers: Record<string, Answer> = {}) {
  return renderAdmin('/content/course/chemical-peels/', staffMember('editor'), {
    'GET /api/admin/content': () => jsonResponse(200, { documents: CONTENT_LIST }),
    [`GET ${COURSE_PATH}`]: () => jsonResponse(200, contentDocument(courseBody())),
    'POST /api/admin/content/markdown': markdown,
    ...answers,
  });
}

describe('editing a course', () => {
  it('shows the course’s live address, version and form', async () => {
    renderCourse();
    expect(await screen.findByRole('heading', { level: 1, name: 'Edit course: Chemical Peels' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '/courses/chemical-peels/' })).toHaveAttribute('href', '/courses/chemical-peels/');
    expect(screen.getByLabelText(/^Price/)).toHaveValue('450.00');
    expect(await screen.findByRole('checkbox', { name: 'Lash Courses' })).not.toBeChecked();
    expect(screen.getByLabelText(/^Section/)).toHaveValue('aesthetics');
    expect(screen.getByLabelText(/^Includes/)).toHaveValue('Starter kit\nCertificate');
    expect(screen.getByText('No draft is waiting: the form shows the live version. Save a draft to publish it.')).toBeInTheDocument();
  });

  it('saves the price (typed in pounds, sent in pence) and the description as a draft', async () => {
    const api = renderCourse({ [`PUT ${COURSE_PATH}/draft`]: () => jsonResponse(200, { draft_saved_at: '2026-11-21T09:30:00Z' }) });
    const price = await screen.findByLabelText(/^Price/);
    await screen.findByRole('checkbox', { name: 'Lash Courses' });
    await userEvent.clear(price);
    await userEvent.type(price, '499.99');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Lash Courses' }));
    const description = screen.getByLabelText(/^Description/);
    await userEvent.clear(description);
    await userEvent.type(description, 'New words');
    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    expect(await screen.findByText(/^Draft saved/)).toBeInTheDocument();
    expect(callsTo(api, `PUT ${COURSE_PATH}/draft`)[0]?.body).toEqual({
      body: courseBody({ price: 49999, also_in: ['lashes'], description: 'New words' }),
    });
    // Now there is a draft to publish, and the status says who saved it.
    expect(screen.getByRole('button', { name: 'Publish' })).toBeInTheDocument();
    expect(screen.getByText('Draft waiting')).toBeInTheDocument();
  });

  it('puts the server’s refusal beside the field it names, and focuses the summary', async () => {
    const api = renderCourse({
      [`PUT ${COURSE_PATH}/draft`]: () => jsonResponse(422, { error: { code: 'invalid', message: 'Please check the course.', fields: { was_price: 'A was-price must be above the price, or left empty.' } } }),
    });
    const was = await screen.findByLabelText(/^Was-price/);
    await userEvent.type(was, '100');
    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    const summary = await screen.findByRole('link', { name: 'Was-price (£): A was-price must be above the price, or left empty.' });
    expect(summary.closest('.error-summary')).toHaveFocus();
    expect(was).toHaveAccessibleDescription(/A was-price must be above the price/);
    expect(callsTo(api, `PUT ${COURSE_PATH}/draft`)[0]?.body).toMatchObject({ body: { was_price: 10000 } });
  });

  it('refuses an image without its alternative text before sending', async () => {
    const api = renderCourse();
    const alt = await screen.findByLabelText(/^Alternative text/);
    await userEvent.clear(alt);
    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    expect(await screen.findByRole('link', { name: 'Image: Describe the image for those who cannot see it' })).toBeInTheDocument();
    expect(callsTo(api, `PUT ${COURSE_PATH}/draft`)).toHaveLength(0);
  });

  it('previews the description with the server’s Markdown after the typing stops', async () => {
    const api = renderCourse();
    const preview = await screen.findByRole('region', { name: 'Preview of Description' });
    await within(preview).findByText('## The day');
    await userEvent.type(screen.getByLabelText(/^Description/), '{enter}Bring a friend');
    expect(await within(preview).findByText('Bring a friend')).toBeInTheDocument();
    const sent = callsTo(api, 'POST /api/admin/content/markdown').map((call) => call.body);
    // Not once a key: once when the page opened, and once after the typing.
    expect(sent).toEqual([{ markdown: '## The day' }, { markdown: '## The day\nBring a friend' }]);
    expect(screen.getAllByRole('status').some((status) => status.textContent === 'Preview updated.')).toBe(true);
  });

  it('adds, moves and removes questions, keeping the focus with them', async () => {
    const api = renderCourse({ [`PUT ${COURSE_PATH}/draft`]: () => jsonResponse(200, { draft_saved_at: '2026-11-21T09:30:00Z' }) });
    await userEvent.click(await screen.findByRole('button', { name: 'Add a question' }));
    expect(screen.getAllByLabelText(/^Question/)[1]).toHaveFocus();
    await userEvent.keyboard('How long?');
    await userEvent.type(screen.getAllByLabelText(/^Answer/)[1]!, 'A day.');
    await userEvent.click(screen.getByRole('button', { name: 'Move up: question 2' }));
    // At the top it can go no higher: the focus goes to its question.
    expect(screen.getAllByLabelText(/^Question/)[0]).toHaveFocus();
    expect(screen.getAllByLabelText(/^Question/)[0]).toHaveValue('How long?');
    expect(screen.getByText('Question 2 moved up, to 1.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Remove: question 2' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await screen.findByText(/^Draft saved/);
    expect(callsTo(api, `PUT ${COURSE_PATH}/draft`)[0]?.body).toMatchObject({ body: { faqs: [{ question: 'How long?', answer: 'A day.' }] } });
  });
});
