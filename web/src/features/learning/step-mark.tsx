import type { StepEntry } from '../../generated/StepEntry';

/** A step's done mark: a tick, and what it means for a screen reader. */
export function DoneMark({ step }: { step: Pick<StepEntry, 'kind' | 'done'> }) {
  if (!step.done) return null;
  return (
    <span className="step-done">
      <span aria-hidden="true">✓</span>
      <span className="visually-hidden">{step.kind === 'quiz' ? ' passed' : ' completed'}</span>
    </span>
  );
}

/** What the contents say beside a step's title: a lesson's reading time, or that it is a quiz. */
export function stepNote(step: StepEntry): string {
  if (step.kind === 'quiz') return 'Quiz';
  return step.minutes === null ? '' : `${step.minutes} min`;
}
