import { z } from 'zod';
import { AdminFormView } from '../../components/admin-form';
import { ChoiceField, RadioField, TextField } from '../../components/form-fields';
import { useAdminForm } from '../../components/use-admin-form';
import type { Session, SessionDetails, SessionType } from '../../lib/api-types';
import { date, oneOf, optionalChoice, poundsFromPence, pounds, requiredText, time, wholeNumber } from '../../lib/form-rules';
import { useCourseChoices, useTutorChoices } from '../../lib/reference-data';

// A session's details, to create one or change one (decision 017), checked
// as the server checks them (http::admin::sessions::check_form): the price
// is typed in pounds and sent in pence, 1 to 500 seats, a joining link is a
// full https:// address. A date in the past, and a seat count below the
// seats booked and held (409), are the server's to refuse: their messages
// go beside the date and the seats.

const TYPES: readonly [SessionType, ...SessionType[]] = ['onsite', 'virtual', 'blended'];
const MAX_SEATS = 500;
const TYPE_CHOICES = [
  { value: 'onsite', label: 'On site' },
  { value: 'virtual', label: 'Virtual' },
  { value: 'blended', label: 'Blended' },
];

const schema = z
  .object({
    courseId: requiredText('Choose a course'),
    date: date('Enter the date'),
    startTime: time('Enter the start time'),
    endTime: time('Enter the end time'),
    type: oneOf(TYPES, 'Choose how the session is taught'),
    price: pounds('Enter the price', 1),
    seats: wholeNumber('Enter the number of seats', 1).refine((seats) => seats <= MAX_SEATS, `Enter at most ${MAX_SEATS} seats`),
    venue: z.string().trim(),
    joiningLink: z.string().trim(),
    tutorId: optionalChoice(),
  })
  .superRefine((session, context) => {
    const problem = (path: keyof typeof session, message: string) => context.addIssue({ code: 'custom', path: [path], message });
    if (session.endTime <= session.startTime) problem('endTime', 'End after the start time');
    if (session.joiningLink && !/^https:\/\/\S+$/.test(session.joiningLink)) problem('joiningLink', 'Enter the full https:// address of the meeting');
  });

type SessionInput = z.input<typeof schema>;

const LABELS: Record<keyof SessionInput, string> = {
  courseId: 'Course',
  date: 'Date',
  startTime: 'Start time',
  endTime: 'End time',
  type: 'How it is taught',
  price: 'Price (£)',
  seats: 'Seats',
  venue: 'Venue',
  joiningLink: 'Joining link',
  tutorId: 'Tutor',
};

const BLANK: SessionInput = { courseId: '', date: '', startTime: '', endTime: '', type: '', price: '', seats: '', venue: '', joiningLink: '', tutorId: '' };

function valuesOf(session: Session): SessionInput {
  return {
    courseId: session.courseId,
    date: session.date,
    startTime: session.startTime,
    endTime: session.endTime,
    type: session.type,
    price: poundsFromPence(session.price),
    seats: String(session.seats),
    venue: session.venue,
    joiningLink: session.joiningLink ?? '',
    tutorId: session.tutorId ?? '',
  };
}

interface SessionFormProps {
  /** The session being changed; a new one when absent, for which the course is chosen. */
  session?: Session;
  submit: string;
  send: (details: SessionDetails) => Promise<string>;
}

export function SessionForm({ session, submit, send }: SessionFormProps) {
  const courses = useCourseChoices({ inPerson: true, load: !session });
  const tutors = useTutorChoices();
  const form = useAdminForm({
    schema,
    defaultValues: session ? valuesOf(session) : BLANK,
    labels: LABELS,
    conflictField: 'seats',
    send,
  });
  return (
    <AdminFormView form={form} submit={submit}>
      {session ? (
        <p>
          <strong>Course:</strong> {session.courseTitle}
        </p>
      ) : (
        <ChoiceField form={form} name="courseId" choices={courses ?? []} none={courses ? 'Please choose' : 'Loading the courses…'} required />
      )}
      <TextField form={form} name="date" type="date" required />
      <div className="field-row">
        <TextField form={form} name="startTime" type="time" hint="UK time" required />
        <TextField form={form} name="endTime" type="time" hint="UK time" required />
      </div>
      <RadioField form={form} name="type" choices={TYPE_CHOICES} required />
      <TextField form={form} name="price" inputMode="decimal" hint="In pounds, like 450 or 449.99" required />
      <TextField form={form} name="seats" inputMode="numeric" hint="No fewer than the seats already booked and held" required />
      <TextField form={form} name="venue" hint="Where it is held, for sessions on site or blended" />
      <TextField form={form} name="joiningLink" type="url" hint="The meeting’s https:// address, for virtual or blended sessions" />
      <ChoiceField form={form} name="tutorId" choices={tutors ?? []} none="No tutor yet" />
    </AdminFormView>
  );
}
