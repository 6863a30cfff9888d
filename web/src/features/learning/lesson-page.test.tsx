import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode } from 'react';
import { MemoryRouter } from '../../test/memory-router';
import { describe, expect, it, vi } from 'vitest';
import type { LessonPage as LessonData } from '../../generated/LessonPage';
import { jsonResponse, stubApi, type Answer } from '../../test/api-stub';
import { lesson } from '../../test/learning-fixtures';
import { LessonPage } from './lesson-page';

const VISIT = 'POST /api/learn/c-lash/lessons/lash-anatomy/visit';
const DONE = 'POST /api/learn/c-lash/lessons/lash-anatomy/done';

function lessonApi(done: Answer = () => jsonResponse(200, { done: true, percent: 60, complete: false })) {
  return stubApi({ [VISIT]: () => jsonResponse(200, { visited: true }), [DONE]: done });
}

function renderLesson(page: LessonData = lesson) {
  // Strict mode runs effects twice, as in development: the visit is still sent once.
  render(
    <StrictMode>
      <MemoryRouter>
        <LessonPage page={page} />
      </MemoryRouter>
    </StrictMode>,
  );
}

describe('LessonPage', () => {
  it('shows the lesson under its course and module, the server’s HTML, and the steps either side', async () => {
    const api = lessonApi();
    renderLesson();
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByRole('link', { name: 'Lash Lift Online' }).getAttribute('href')).toBe('/learn/c-lash/');
    expect(crumbs.textContent).toBe('Lash Lift OnlineGetting startedLash anatomy');
    expect(screen.getByRole('heading', { level: 1, name: 'Lash anatomy' })).toBeInTheDocument();
    expect(screen.getByText('6 min read')).toBeInTheDocument();
    expect(document.querySelector('.prose')!.innerHTML).toBe(lesson.html);
    const steps = screen.getByRole('navigation', { name: 'Previous and next' });
    expect(within(steps).getByRole('link', { name: 'Previous: Welcome to the course' }).getAttribute('href')).toBe('/learn/c-lash/welcome/');
    expect(within(steps).getByRole('link', { name: 'Next: Module 1 quiz' }).getAttribute('href')).toBe('/learn/c-lash/module-1-quiz/');
    await vi.waitFor(() => expect(api.routes()).toEqual([VISIT]));
  });

  it('posts the visit once, after it is shown', async () => {
    const api = lessonApi();
    renderLesson();
    await vi.waitFor(() => expect(api.routes()).toContain(VISIT));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(api.routes()).toEqual([VISIT]);
    expect(api.requests[0]!.init?.credentials).toBe('same-origin');
  });

  it('marks the lesson complete, says so and shows the course’s new progress', async () => {
    const api = lessonApi();
    renderLesson();
    expect(screen.getByRole('progressbar', { name: 'Course progress' }).getAttribute('aria-valuenow')).toBe('40');
    await userEvent.click(screen.getByRole('button', { name: 'Mark as complete' }));
    const completed = await screen.findByText('Completed');
    await vi.waitFor(() => expect(document.activeElement).toBe(completed.closest('p')));
    expect(screen.queryByRole('button', { name: 'Mark as complete' })).toBeNull();
    expect(screen.getByRole('progressbar', { name: 'Course progress' }).getAttribute('aria-valuenow')).toBe('60');
    expect(screen.getByText('60% complete')).toBeInTheDocument();
    expect(api.calls.find((call) => call.route === DONE)!.body).toEqual({});
  });

  it('says when the course is complete, with the certificate it earned', async () => {
    lessonApi(() => jsonResponse(200, { done: true, percent: 100, complete: true, certificate: 'CA-2026-K7Q2M9XD' }));
    renderLesson();
    await userEvent.click(screen.getByRole('button', { name: 'Mark as complete' }));
    expect(await screen.findByText('You have completed this course. Well done!')).toBeInTheDocument();
    expect(screen.getByText(/Your certificate number is CA-2026-K7Q2M9XD\./)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download your certificate (PDF)' }).getAttribute('href')).toBe('/api/account/certificates/CA-2026-K7Q2M9XD');
    expect(screen.getByRole('link', { name: 'see its public page' }).getAttribute('href')).toBe('/certificates/CA-2026-K7Q2M9XD');
  });

  it('says why marking it failed, with the focus on the message, and keeps the button', async () => {
    lessonApi(() => jsonResponse(404, { error: { code: 'not_found', message: 'This lesson is not in your course any more.' } }));
    renderLesson();
    await userEvent.click(screen.getByRole('button', { name: 'Mark as complete' }));
    const alert = screen.getByRole('alert');
    await vi.waitFor(() => expect(alert.textContent).toBe('This lesson is not in your course any more.'));
    await vi.waitFor(() => expect(document.activeElement).toBe(alert));
    expect(screen.getByRole('button', { name: 'Mark as complete' })).toBeInTheDocument();
  });

  it('shows a lesson done already as completed, its video and its downloads', () => {
    lessonApi();
    renderLesson({
      ...lesson, done: true, video: { source: 'embed', url: 'https://player.vimeo.com/video/1' },
      downloads: [
        { title: 'Aftercare sheet', url: '/learn/peels/files/ab12.pdf?download', format: 'PDF', bytes: 348_160 },
        { title: 'Diagram', url: '/media/uploads/cd34.png', format: null, bytes: null },
      ],
    });
    expect(screen.getByText('Completed')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Mark as complete' })).toBeNull();
    const player = screen.getByTitle('Video: Lash anatomy');
    expect(player.getAttribute('src')).toBe('https://player.vimeo.com/video/1');
    expect(player.getAttribute('loading')).toBe('lazy');
    const downloads = screen.getByRole('region', { name: 'Downloads' });
    expect(within(downloads).getByRole('link', { name: 'Aftercare sheet' }).getAttribute('href')).toBe('/learn/peels/files/ab12.pdf?download');
    expect(within(downloads).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Aftercare sheet (PDF, 340 KB)', 'Diagram']);
  });

  it('plays a video file in the browser’s own player', () => {
    lessonApi();
    renderLesson({ ...lesson, video: { source: 'file', url: '/media/lesson.mp4' } });
    const video = document.querySelector('video')!;
    expect(video.getAttribute('src')).toBe('/media/lesson.mp4');
    expect(video.hasAttribute('controls')).toBe(true);
    expect(video.getAttribute('preload')).toBe('metadata');
  });
});
