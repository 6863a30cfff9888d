import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, type Answer } from '../../../../test/api-stub';
import { CONTENT_LIST, contentDocument, courseBody, LEARNING } from '../../../test/content-fixtures';
import { staffMember } from '../../../test/fixtures';
import { callsTo, renderAdmin } from '../../../test/render-admin';

// The lessons and quizzes of an online course in its form: folded until
// opened, added to and reordered, checked before sending in the server's
// words, and the server's refusals beside the field each names.

const COURSE_PATH = '/api/admin/content/course/skin-online';
const DRAFT = `PUT ${COURSE_PATH}/draft`;
const saved = () => jsonResponse(200, { draft_saved_at: '2026-11-21T09:30:00Z' });

function renderCourse(answers: Record<string, Answer> = {}) {
  return renderAdmin('/content/course/skin-online/', staffMember('editor'), {
    'GET /api/admin/content': () => jsonResponse(200, { documents: CONTENT_LIST }),
    [`GET ${COURSE_PATH}`]: () => jsonResponse(200, contentDocument(courseBody({ online: true, learning: LEARNING }), { key: 'skin-online', title: 'Skin Online' })),
    'POST /api/admin/content/markdown': () => jsonResponse(200, { html: '<p>Rendered</p>' }),
    ...answers,
  });
}

/** The folded part whose summary starts with `title`. */
async function fold(title: string) {
  const summary = await screen.findByText(title, { selector: '.curriculum-summary-title' }, { timeout: 5000 });
  return summary.closest('details')!;
}

async function open(title: string) {
  const details = await fold(title);
  if (!details.open) await userEvent.click(details.querySelector('summary')!);
  return details;
}

const sentBody = (api: ReturnType<typeof renderCourse>) => (callsTo(api, DRAFT).at(-1)?.body as { body: { learning: typeof LEARNING } }).body.learning;

describe('the lessons and quizzes of an online course', () => {
  it('folds each module, lesson and quiz under a summary until it is opened', async () => {
    renderCourse();
    const module = await fold('Module 1: The skin');
    expect(module.open).toBe(false);
    expect(within(module).getByText('2 lessons and a quiz')).toBeInTheDocument();
    expect(screen.queryByLabelText(/^Title of the lesson/)).not.toBeInTheDocument();
    await open('Module 1: The skin');
    const lesson = await open('Lesson 1: The epidermis');
    expect(within(lesson).getByLabelText(/^Slug/)).toHaveValue('epidermis');
    expect(within(lesson).getByLabelText(/^Slug/)).toHaveAccessibleDescription(/changing it later loses what they have done/);
    expect(within(lesson).getByLabelText(/^Minutes/)).toHaveValue('10');
    expect(await within(within(lesson).getByRole('region', { name: 'Preview of the lesson’s text' })).findByText('Rendered')).toBeInTheDocument();
    // A question's keys are the form's own: only its words and right answers show.
    const quiz = await open('Quiz: The skin');
    await open('Question 1: Which layer sheds?');
    expect(within(quiz).getByLabelText(/^Choice 1/)).toHaveValue('The stratum corneum');
    expect(within(quiz).queryByDisplayValue('q1')).not.toBeInTheDocument();
    expect(within(quiz).getByRole('checkbox', { name: 'Right answer for choice 1' })).toBeChecked();
  });

  it('adds a lesson whose slug follows its title, and a question with keys of its own', async () => {
    const api = renderCourse({ [DRAFT]: saved });
    const module = await open('Module 2: Healing');
    await userEvent.click(within(module).getByRole('button', { name: 'Add a lesson' }));
    expect(screen.getByLabelText(/^Title of the lesson/)).toHaveFocus();
    await userEvent.keyboard('Caring for a scar');
    const lesson = await fold('Lesson 3: Caring for a scar');
    expect(within(lesson).getByLabelText(/^Slug/)).toHaveValue('caring-for-a-scar');
    await userEvent.type(within(lesson).getByLabelText(/^Minutes/), '6');
    await userEvent.type(within(lesson).getByLabelText(/^Text/), 'Keep it out of the sun.');
    // The buttons that move a lesson are outside its fold, so a folded lesson moves too.
    await userEvent.click(screen.getByRole('button', { name: 'Move up: lesson 3' }));
    expect(screen.getByText('Lesson 3 moved up, to 2.')).toBeInTheDocument();

    await open('Module 1: The skin');
    const quiz = await open('Quiz: The skin');
    await userEvent.click(within(quiz).getByRole('button', { name: 'Add a question' }));
    await userEvent.keyboard('Which layer is deepest?');
    const question = await fold('Question 3: Which layer is deepest?');
    await userEvent.type(within(question).getByLabelText(/^Choice 1/), 'The hypodermis');
    await userEvent.type(within(question).getByLabelText(/^Choice 2/), 'The epidermis');
    await userEvent.click(within(question).getByRole('checkbox', { name: 'Right answer for choice 1' }));

    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await screen.findByText(/^Draft saved/);
    const learning = sentBody(api);
    expect(learning.modules[1]?.lessons.map((sent) => sent.slug)).toEqual(['healing', 'caring-for-a-scar', 'scars']);
    expect(learning.modules[1]?.lessons[1]).toEqual({ slug: 'caring-for-a-scar', title: 'Caring for a scar', minutes: 6, body: 'Keep it out of the sun.', downloads: [] });
    expect(learning.modules[0]?.quiz?.questions[2]).toEqual({
      key: 'q3',
      prompt: 'Which layer is deepest?',
      kind: 'single',
      choices: [{ key: 'c1', text: 'The hypodermis', correct: true }, { key: 'c2', text: 'The epidermis', correct: false }],
    });
  }, 30_000);

  it('keeps a saved lesson’s slug when its title changes', async () => {
    const api = renderCourse({ [DRAFT]: saved });
    await open('Module 1: The skin');
    const lesson = await open('Lesson 1: The epidermis');
    const title = within(lesson).getByLabelText(/^Title of the lesson/);
    await userEvent.clear(title);
    await userEvent.type(title, 'Epidermis');
    expect(within(lesson).getByLabelText(/^Slug/)).toHaveValue('epidermis');
    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await screen.findByText(/^Draft saved/);
    expect(sentBody(api).modules[0]?.lessons[0]).toMatchObject({ slug: 'epidermis', title: 'Epidermis' });
  });

  it('refuses a single-choice question with two right answers and a slug used twice, in the server’s words, keeping what was typed', async () => {
    const api = renderCourse();
    await open('Module 2: Healing');
    const lesson = await open('Lesson 2: Scars');
    const slug = within(lesson).getByLabelText(/^Slug/);
    await userEvent.clear(slug);
    await userEvent.type(slug, 'healing');
    await open('Module 1: The skin');
    await open('Quiz: The skin');
    const question = await open('Question 1: Which layer sheds?');
    await userEvent.click(within(question).getByRole('checkbox', { name: 'Right answer for choice 2' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));

    const twice = await screen.findByRole('link', { name: 'Lessons and quizzes: Module 2, lesson 2, slug: \'healing\' is used twice.' });
    expect(twice.closest('.error-summary')).toHaveFocus();
    expect(slug).toHaveAccessibleDescription(/'healing' is used twice\./);
    expect(slug).toHaveValue('healing');
    const choices = within(question).getByRole('group', { name: 'Choices' });
    expect(choices).toHaveAccessibleDescription('A single-choice question needs exactly one correct choice, not 2.');
    await userEvent.click(screen.getByRole('link', { name: /Module 1 quiz, question 1, choices: A single-choice question/ }));
    expect(choices).toHaveFocus();
    expect(callsTo(api, DRAFT)).toHaveLength(0);
  });

  it('puts each of the server’s problems beside its field, opening the folds it is in', async () => {
    renderCourse({
      [DRAFT]: () =>
        jsonResponse(422, {
          error: {
            code: 'invalid',
            message: 'Please check the highlighted fields.',
            fields: {
              learning: 'Check the lessons and quizzes: each problem is named where it is.',
              'learning.modules.1.lessons.0.video': "'nothere' is not a file's name.",
              'learning.assessment.pass_mark': 'The pass mark must be 1 to 100 per cent, not 0.',
            },
          },
        }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Save draft' }));
    const link = await screen.findByRole('link', { name: "Lessons and quizzes: Module 2, lesson 1, video: 'nothere' is not a file's name." });
    expect(screen.getByRole('link', { name: 'Lessons and quizzes: Check the lessons and quizzes: each problem is named where it is.' })).toBeInTheDocument();
    expect((await fold('Module 2: Healing')).open).toBe(true);
    const lesson = await fold('Lesson 1: How skin heals');
    expect(lesson.open).toBe(true);
    const video = within(lesson).getByRole('group', { name: 'Video' });
    expect(video).toHaveAccessibleDescription("'nothere' is not a file's name.");
    await userEvent.click(link);
    expect(video).toHaveFocus();
    const assessment = await fold('Final assessment: Final assessment');
    expect(within(assessment).getByLabelText(/^Pass mark/)).toHaveAccessibleDescription(/The pass mark must be 1 to 100 per cent, not 0\./);
    // What was there is still there.
    expect(within(assessment).getByLabelText(/^Pass mark/)).toHaveValue('70');
  });

  it('gives a course its first lessons', async () => {
    const api = renderAdmin('/content/course/skin-online/', staffMember('editor'), {
      'GET /api/admin/content': () => jsonResponse(200, { documents: CONTENT_LIST }),
      [`GET ${COURSE_PATH}`]: () => jsonResponse(200, contentDocument(courseBody({ online: true }), { key: 'skin-online', title: 'Skin Online' })),
      'POST /api/admin/content/markdown': () => jsonResponse(200, { html: '' }),
      [DRAFT]: saved,
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Write lessons' }));
    expect(screen.getByLabelText(/^Title of the module/)).toHaveFocus();
    await userEvent.keyboard('Welcome');
    await userEvent.type(screen.getByLabelText(/^Title of the lesson/), 'Start here');
    await userEvent.type(screen.getByLabelText(/^Minutes/), '3');
    await userEvent.type(screen.getByLabelText(/^Text/), 'Hello.');
    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await screen.findByText(/^Draft saved/);
    expect(sentBody(api)).toEqual({
      access_months: 12,
      modules: [{ title: 'Welcome', lessons: [{ slug: 'start-here', title: 'Start here', minutes: 3, body: 'Hello.', downloads: [] }] }],
    });
  });
});
