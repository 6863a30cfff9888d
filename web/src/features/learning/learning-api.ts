import type { Answers } from '../../generated/Answers';
import type { Cmi } from '../../generated/Cmi';
import type { AttemptMarked } from '../../generated/AttemptMarked';
import type { LessonDone } from '../../generated/LessonDone';
import type { PackageCommitted } from '../../generated/PackageCommitted';
import type { PackageOpened } from '../../generated/PackageOpened';
import { ApiError, postJson } from '../../lib/api';
import { askTheBackOffice, inSandboxedPreview } from '../../lib/preview-frame';

// The course player's calls (decision 025). The server keeps the rules: it
// records visits and completions, marks quizzes and counts attempts; the
// browser only says what the student did and shows the answer. The
// answers' types are the server's (`http::learning`), generated.

const UNREACHABLE = 'We could not reach the college. Please check your connection and try again.';

const coursePath = (courseId: string) => `/api/learn/${encodeURIComponent(courseId)}`;

/** Says the lesson was opened, so "Continue" comes back to it. */
export function sendVisit(courseId: string, slug: string): Promise<unknown> {
  return postJson<unknown>(`${coursePath(courseId)}/lessons/${encodeURIComponent(slug)}/visit`, {});
}

export function markLessonDone(courseId: string, slug: string): Promise<LessonDone> {
  return postJson<LessonDone>(`${coursePath(courseId)}/lessons/${encodeURIComponent(slug)}/done`, {});
}

/**
 * Sends every question's chosen keys to where the page says they are marked
 * (the player's attempts, or a staff preview's, which records nothing, asked
 * of the back office around its sandboxed frame); the server refuses
 * unanswered questions without counting an attempt.
 */
export function submitAttempt(attemptsUrl: string, answers: Answers): Promise<AttemptMarked> {
  const body = { answers };
  return inSandboxedPreview() ? askTheBackOffice<AttemptMarked>(attemptsUrl, body) : postJson<AttemptMarked>(attemptsUrl, body);
}

/** What the student is told when a call failed: the server's own words, or that it could not be reached. */
export function problemOf(error: unknown): string {
  return error instanceof ApiError ? error.message : UNREACHABLE;
}

/** Opens the course's SCORM package (decision 026): the address of its first page, for this sitting. */
export function openPackage(courseId: string): Promise<PackageOpened> {
  return postJson<PackageOpened>(`${coursePath(courseId)}/package/launch`, {});
}

/** Sends what the package's runtime committed; the answer says where the course stands. */
export function sendCommit(courseId: string, cmi: Cmi): Promise<PackageCommitted> {
  return postJson<PackageCommitted>(`${coursePath(courseId)}/package/commit`, cmi);
}
